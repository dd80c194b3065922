/**
 * Sealing one attached file, as a stream: the file is read in the browser's own slices, each slice
 * hashed (SHA-256 of the plaintext, for the document) and encrypted by age in 64 KiB chunks, and
 * the ciphertext gathered into a Blob a few megabytes at a time. The whole plaintext is never held
 * in the page's memory; the ciphertext lives in the Blob, which the browser keeps outside the
 * page's heap (and on disk when large). The contact form seals a visitor's files with it (in its
 * crypto chunk, seal-submission.ts), the staff inbox a reply's.
 */
import { Encrypter } from 'age-encryption'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { ATTACHMENT_CONTENT_TYPE } from '../submission/attachments'

/**
 * Why a file could not be sealed: a recipient age refuses, the file unreadable to its end (moved,
 * deleted or changed since it was picked), or age itself failing. Each app words it for its people.
 */
export type FileSealFailure = 'invalid-recipient' | 'file-unreadable' | 'encrypt-failed'

/** The only error sealFile throws; `message` is for a developer's console. */
export class FileSealError extends Error {
  readonly reason: FileSealFailure

  constructor(reason: FileSealFailure, options?: { cause?: unknown }) {
    super(`the file could not be sealed: ${reason}`, options)
    this.name = 'FileSealError'
    this.reason = reason
  }
}

/** Ciphertext is folded into the Blob every this many bytes, so the page holds at most this much. */
export const FOLD_BYTES = 4 * 1024 * 1024

/** A file sealed: its ciphertext (an age file, binary), and its plaintext's size and SHA-256. */
export type FileSeal = { ciphertext: Blob; size: number; sha256: string }

/**
 * Seals `file` to `recipients` (already checked). `onBytes(n)` reports each slice of plaintext as
 * it is sealed. Throws a FileSealError: 'file-unreadable' when the file cannot be read to the end
 * or changes size meanwhile, 'encrypt-failed' when age fails.
 */
export async function sealFile(
  file: Blob,
  recipients: readonly string[],
  onBytes?: (bytes: number) => void,
): Promise<FileSeal> {
  const encrypter = new Encrypter()
  try {
    for (const recipient of new Set(recipients)) encrypter.addRecipient(recipient)
  } catch (cause) {
    throw new FileSealError('invalid-recipient', { cause })
  }
  const hash = sha256.create()
  let read = 0
  let readFailed: unknown = null
  // Whatever fails while reading the file (NotReadableError) surfaces through age's stream.
  const source = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk)
        read += chunk.byteLength
        onBytes?.(chunk.byteLength)
        controller.enqueue(chunk)
      },
      flush() {
        if (read !== file.size) readFailed = new Error('the file changed size while being read')
      },
    }),
  )
  let blob = new Blob([], { type: ATTACHMENT_CONTENT_TYPE })
  let parts: Uint8Array[] = []
  let held = 0
  try {
    const reader = (await encrypter.encrypt(source)).getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      parts.push(value)
      held += value.byteLength
      if (held >= FOLD_BYTES) {
        blob = new Blob([blob, ...(parts as BlobPart[])], { type: ATTACHMENT_CONTENT_TYPE })
        parts = []
        held = 0
      }
    }
  } catch (cause) {
    throw new FileSealError(cause instanceof DOMException ? 'file-unreadable' : 'encrypt-failed', {
      cause,
    })
  }
  if (readFailed !== null || read !== file.size) {
    throw new FileSealError('file-unreadable', { cause: readFailed })
  }
  blob = new Blob([blob, ...(parts as BlobPart[])], { type: ATTACHMENT_CONTENT_TYPE })
  return { ciphertext: blob, size: read, sha256: bytesToHex(hash.digest()) }
}
