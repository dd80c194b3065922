/** A picked file that can no longer be read (moved, deleted or changed since it was picked). */
export const unreadableBlob = (size = 10) =>
  ({
    size,
    stream: () =>
      new ReadableStream<Uint8Array>({
        pull: (controller) => controller.error(new DOMException('gone', 'NotReadableError')),
      }),
  }) as unknown as Blob
