/**
 * Uploading sealed attachments to Storage (the interface: /work FILES.md, in short: the private
 * bucket, insert only, `application/octet-stream`, no metadata but the object's name). Ciphertext
 * up to RESUMABLE_THRESHOLD_BYTES goes as one standard upload (supabase-js); larger through
 * Storage's resumable (TUS) endpoint with tus-js-client, in 6 MB chunks, so a cut upload resumes
 * from its offset. Loaded only when files are sent (from send-to-supabase.ts), never with a page.
 *
 * Every upload is insert-only: an object that already exists (an earlier try of the same draft, or
 * the outbox after a lost answer) answers 409, which counts as stored, since its name is random and
 * only this draft knows it. So a file is stored exactly once, whichever try gets through.
 */
import { Upload, type DetailedError } from 'tus-js-client'
import { siteEnv } from '../../../lib/env'
import { supabase } from '../../../lib/supabase'
import {
  ATTACHMENT_CONTENT_TYPE,
  ATTACHMENTS_BUCKET,
  RESUMABLE_THRESHOLD_BYTES,
} from '../../../shared/submission/attachments'
import type { SendOutcome } from '../send-to-supabase'

/** One sealed file as it is uploaded: its object's name and its ciphertext (never the name). */
export type SealedUpload = { object: string; ciphertext: Blob }

/** `sent`: ciphertext bytes stored so far across every file of the call, of `total`. */
export type UploadProgress = (sent: number, total: number) => void

/** How long a standard upload (at most 6 MB) may take before it counts as no answer. */
export const STANDARD_UPLOAD_TIMEOUT_MS = 60_000

/** How tus-js-client waits between tries of a chunk before the upload counts as no answer. */
export const RESUMABLE_RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000]

/** An HTTP status, as an outcome: the same rules as the row's insert (send-to-supabase.ts). */
export function classifyUploadStatus(status: number, detail: string): SendOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered' }
  // Already stored under this random name: by this draft's earlier try, nobody else's.
  if (status === 409) return { kind: 'delivered' }
  if (status === 0) return { kind: 'no-answer', reason: 'noAnswer', detail }
  if (status === 429) return { kind: 'no-answer', reason: 'busy', detail }
  if ([408, 502, 503, 504, 520, 521, 522, 523, 524].includes(status)) {
    return { kind: 'no-answer', reason: 'noAnswer', detail }
  }
  if (status >= 500) return { kind: 'server-error', reason: 'serverError', detail }
  if (status === 404 || status === 405) return { kind: 'refused', reason: 'unavailable', detail }
  return { kind: 'refused', reason: 'fileRefused', detail }
}

type StorageAnswer = { error: { status?: unknown; statusCode?: unknown; message?: string } | null }

/** supabase-js's answer to a standard upload, as an outcome. */
export function classifyStandardUpload({ error }: StorageAnswer): SendOutcome {
  if (!error) return { kind: 'delivered' }
  // Storage answers refusals with HTTP 400 and the real status in the body's `statusCode` ("409"
  // for an object that already exists): that one decides, the HTTP status only without it.
  const code = Number(error.statusCode)
  const status =
    Number.isInteger(code) && code > 0 ? code : typeof error.status === 'number' ? error.status : 0
  return classifyUploadStatus(status, `HTTP ${status}: ${(error.message ?? '').slice(0, 300)}`)
}

async function uploadStandard(file: SealedUpload): Promise<SendOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<SendOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'no-answer', reason: 'noAnswer', detail: 'upload timed out' }),
      STANDARD_UPLOAD_TIMEOUT_MS,
    )
  })
  // A Blob goes as multipart form data, its part typed by the Blob: application/octet-stream.
  const upload = supabase.storage
    .from(ATTACHMENTS_BUCKET)
    .upload(file.object, file.ciphertext, { contentType: ATTACHMENT_CONTENT_TYPE, upsert: false })
    .then(classifyStandardUpload, (error: unknown): SendOutcome => ({
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

/** Where tus-js-client keeps a started upload's URL (localStorage): the object's name, no content. */
export const resumeKey = (object: string) => `contact-attachment:${object}`

function uploadResumable(
  file: SealedUpload,
  onBytes: (sent: number) => void,
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const upload = new Upload(file.ciphertext, {
      endpoint: `${siteEnv.supabaseUrl}/storage/v1/upload/resumable`,
      headers: {
        authorization: `Bearer ${siteEnv.supabaseAnonKey}`,
        apikey: siteEnv.supabaseAnonKey,
        'x-upsert': 'false',
      },
      metadata: {
        bucketName: ATTACHMENTS_BUCKET,
        objectName: file.object,
        contentType: ATTACHMENT_CONTENT_TYPE,
        cacheControl: '3600',
      },
      chunkSize: RESUMABLE_THRESHOLD_BYTES,
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      retryDelays: RESUMABLE_RETRY_DELAYS_MS,
      fingerprint: () => Promise.resolve(resumeKey(file.object)),
      onProgress: (sent) => onBytes(sent),
      onSuccess: () => resolve({ kind: 'delivered' }),
      onError: (error) => {
        const response = (error as DetailedError).originalResponse
        const status = response ? response.getStatus() : 0
        const detail = `resumable upload: ${String(error).slice(0, 300)}`
        resolve(classifyUploadStatus(status, detail))
      },
    })
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
 */
export async function uploadAttachments(
  files: readonly SealedUpload[],
  onProgress?: UploadProgress,
): Promise<SendOutcome> {
  const total = files.reduce((sum, file) => sum + file.ciphertext.size, 0)
  let done = 0
  for (const file of files) {
    const outcome =
      file.ciphertext.size > RESUMABLE_THRESHOLD_BYTES
        ? await uploadResumable(file, (sent) => onProgress?.(done + sent, total))
        : await uploadStandard(file)
    if (outcome.kind !== 'delivered') return outcome
    done += file.ciphertext.size
    onProgress?.(done, total)
  }
  return { kind: 'delivered' }
}
