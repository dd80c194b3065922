/**
 * Uploading sealed files to Storage, for both apps: the contact form's attachments (anon, into
 * contact-attachments) and the inbox's reply files (staff, into conversation-files). Always
 * `application/octet-stream`, no metadata but the object's name, insert only. Ciphertext up to
 * RESUMABLE_THRESHOLD_BYTES goes as one standard upload (supabase-js); larger through Storage's
 * resumable (TUS) endpoint with tus-js-client, in 6 MB chunks, so a cut upload resumes from its
 * offset. Each app loads it only when files are sent, never with a page.
 *
 * Every upload is insert-only: an object that already exists (an earlier try of the same draft, or
 * the outbox after a lost answer) answers 409, which counts as stored, since its name is random and
 * only this draft knows it. So a file is stored exactly once, whichever try gets through.
 */
import { Upload, type DetailedError } from 'tus-js-client'
import { ATTACHMENT_CONTENT_TYPE, RESUMABLE_THRESHOLD_BYTES } from '../submission/attachments'
import {
  classifyStandardUpload,
  classifyUploadStatus,
  type StorageAnswer,
  type UploadOutcome,
} from './upload-outcome'

/** One sealed file as it is uploaded: its object's name and its ciphertext (never the name). */
export type SealedUpload = { object: string; ciphertext: Blob }

/** `sent`: ciphertext bytes stored so far across every file of the call, of `total`. */
export type UploadProgress = (sent: number, total: number) => void

/** The part of supabase-js's Storage client an upload uses: `client.storage`. */
export type StorageClient = {
  from(bucket: string): {
    upload(
      path: string,
      body: Blob,
      options: { contentType: string; upsert: boolean },
    ): PromiseLike<StorageAnswer>
  }
}

/**
 * Where the files go and as whom: the project's address and API key, the bearer token of the
 * uploader (the anon key, or a staff session's access token), the bucket, and whether a started
 * resumable upload is remembered across visits (localStorage under `resumeKeyPrefix` + the
 * object's name, removed on success) or only for this call (null).
 */
export type UploadTarget = {
  storage: StorageClient
  url: string
  apikey: string
  bearer: string
  bucket: string
  resumeKeyPrefix: string | null
}

/** How long a standard upload (at most 6 MB) may take before it counts as no answer. */
export const STANDARD_UPLOAD_TIMEOUT_MS = 60_000

/** How tus-js-client waits between tries of a chunk before the upload counts as no answer. */
export const RESUMABLE_RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000]

async function uploadStandard(file: SealedUpload, target: UploadTarget): Promise<UploadOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<UploadOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'no-answer', reason: 'noAnswer', detail: 'upload timed out' }),
      STANDARD_UPLOAD_TIMEOUT_MS,
    )
  })
  // A Blob goes as multipart form data, its part typed by the Blob: application/octet-stream.
  const upload = Promise.resolve(
    target.storage.from(target.bucket).upload(file.object, file.ciphertext, {
      contentType: ATTACHMENT_CONTENT_TYPE,
      upsert: false,
    }),
  ).then(classifyStandardUpload, (error: unknown): UploadOutcome => ({
    kind: 'no-answer',
    reason: 'noAnswer',
    detail: String(error),
  }))
  try {
    return await Promise.race([upload, timedOut])
  } finally {
    clearTimeout(timer)
  }
}

function uploadResumable(
  file: SealedUpload,
  target: UploadTarget,
  onBytes: (sent: number) => void,
): Promise<UploadOutcome> {
  const remembered = target.resumeKeyPrefix !== null
  return new Promise((resolve) => {
    const upload = new Upload(file.ciphertext, {
      endpoint: `${target.url}/storage/v1/upload/resumable`,
      headers: {
        authorization: `Bearer ${target.bearer}`,
        apikey: target.apikey,
        'x-upsert': 'false',
      },
      metadata: {
        bucketName: target.bucket,
        objectName: file.object,
        contentType: ATTACHMENT_CONTENT_TYPE,
        cacheControl: '3600',
      },
      chunkSize: RESUMABLE_THRESHOLD_BYTES,
      uploadDataDuringCreation: true,
      storeFingerprintForResuming: remembered,
      removeFingerprintOnSuccess: true,
      retryDelays: RESUMABLE_RETRY_DELAYS_MS,
      fingerprint: () => Promise.resolve(`${target.resumeKeyPrefix ?? ''}${file.object}`),
      onProgress: (sent) => onBytes(sent),
      onSuccess: () => resolve({ kind: 'delivered' }),
      onError: (error) => {
        const response = (error as DetailedError).originalResponse
        const status = response ? response.getStatus() : 0
        const detail = `resumable upload: ${String(error).slice(0, 300)}`
        resolve(classifyUploadStatus(status, detail))
      },
    })
    if (!remembered) {
      upload.start()
      return
    }
    // A try cut earlier (a dropped connection, a closed tab) left its URL: go on from its offset.
    upload
      .findPreviousUploads()
      .then((previous) => {
        const [latest] = previous
        if (latest) upload.resumeFromPreviousUpload(latest)
      })
      .catch(() => undefined)
      .finally(() => upload.start())
  })
}

/**
 * Uploads every file, one after the other, and answers as one: delivered once all are stored,
 * otherwise the first file's outcome that was not (the rest are not tried: they would fare alike).
 * `onStored(object)` reports each file stored, so a caller can skip it when it tries again.
 */
export async function uploadFiles(
  files: readonly SealedUpload[],
  target: UploadTarget,
  onProgress?: UploadProgress,
  onStored?: (object: string) => void,
): Promise<UploadOutcome> {
  const total = files.reduce((sum, file) => sum + file.ciphertext.size, 0)
  let done = 0
  for (const file of files) {
    const outcome =
      file.ciphertext.size > RESUMABLE_THRESHOLD_BYTES
        ? await uploadResumable(file, target, (sent) => onProgress?.(done + sent, total))
        : await uploadStandard(file, target)
    if (outcome.kind !== 'delivered') return outcome
    done += file.ciphertext.size
    onStored?.(file.object)
    onProgress?.(done, total)
  }
  return { kind: 'delivered' }
}
