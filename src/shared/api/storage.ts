/**
 * The Storage half of the transport, for both apps and the service worker: sealed files uploaded
 * (the form's attachments as anon, reply files as staff) and downloaded. Every upload is
 * `application/octet-stream`, insert only, named by two random UUIDs: an object that already
 * exists answers 409, which counts as stored, since only the draft that made the name knows it.
 * Ciphertext up to RESUMABLE_THRESHOLD_BYTES goes as one standard upload; larger through Storage's
 * resumable (TUS) endpoint with tus-js-client, in chunks of that size, so a cut upload resumes.
 */
import { defaultOptions, Upload, type DetailedError, type HttpStack } from 'tus-js-client'
import { ATTACHMENT_CONTENT_TYPE, RESUMABLE_THRESHOLD_BYTES } from '../submission/attachments'
import { fetchHttpStack } from './fetch-http-stack'
import {
  classify,
  DELIVERED,
  STATEMENT_TIMEOUT,
  type Answer,
  type Outcome,
  type TransportReason,
} from './outcome'

export type UploadReason = TransportReason | 'fileRefused'
export type UploadOutcome = Outcome<UploadReason>

/** One sealed file as it is uploaded: its object's name and its ciphertext (never the name). */
export type SealedUpload = { object: string; ciphertext: Blob }

/** `sent`: ciphertext bytes stored so far across every file of the call, of `total`. */
export type UploadProgress = (sent: number, total: number) => void

/** A refusal from Storage: supabase-js's error, or the body of a plain fetch's answer. */
export type StorageRefusal = { status?: unknown; statusCode?: unknown; message?: string }

/** The part of supabase-js's Storage client the transport uses: `client.storage`. */
export type StorageClient = {
  from(bucket: string): {
    upload(
      path: string,
      body: Blob,
      options: { contentType: string; upsert: boolean },
    ): PromiseLike<{ error: StorageRefusal | null }>
  }
}

/**
 * Where the files go and as whom: the project's address and API key, the bearer token (the anon
 * key, or a staff session's access token), the bucket, and whether a started resumable upload is
 * remembered across visits (localStorage under `resumeKeyPrefix` + the object's name, removed on
 * success) or only for this call (null). `reserve` announces each file before its upload, where
 * the database asks for it (the form's files: their bytes count against the limits from the
 * start). `httpStack` replaces tus-js-client's own (tests).
 */
export type UploadTarget = {
  storage: StorageClient
  url: string
  apikey: string
  bearer: string
  bucket: string
  resumeKeyPrefix: string | null
  reserve?: (file: SealedUpload) => Promise<UploadOutcome>
  httpStack?: HttpStack
}

/** How long a standard upload (at most 6 MB) may take before it counts as no answer. */
export const STANDARD_UPLOAD_TIMEOUT_MS = 60_000

/** How tus-js-client waits between tries of a chunk before the upload counts as no answer. */
export const RESUMABLE_RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000]

/**
 * The status a refusal really carries: Storage answers refusals with HTTP 400 and the real status
 * in the body's `statusCode` ("409" for an object that already exists, "404" for none); the HTTP
 * status only without it; 0 when neither says (no answer at all).
 */
export function storageStatus({ status, statusCode }: StorageRefusal): number {
  const real = Number(statusCode)
  if (Number.isInteger(real) && real > 0) return real
  return typeof status === 'number' ? status : 0
}

/**
 * Storage's word for a statement the database cancelled: 544 `DatabaseTimeout` ("The connection
 * to the database timed out"), or, from Storage versions before that code, a 500 naming 57014 or
 * quoting PostgreSQL's "canceling statement due to statement timeout". Nothing was stored: try
 * again.
 */
const STORAGE_TIMEOUT_STATUS = 544
const TIMEOUT_WORDS = /statement timeout|DatabaseTimeout|database timed out|\b57014\b/i

function storageTimedOut(status: number, message: string): boolean {
  return status === STORAGE_TIMEOUT_STATUS || (status >= 500 && TIMEOUT_WORDS.test(message))
}

/** An answer from Storage (its status and words), with the statement timeout named as such. */
export function storageStatusAnswer(status: number, message: string): Answer {
  return {
    status,
    error: storageTimedOut(status, message) ? { code: STATEMENT_TIMEOUT, message } : { message },
  }
}

/** supabase-js's `{ error }` from Storage, as an answer the rule reads. */
export const storageAnswer = (refusal: StorageRefusal | null): Answer =>
  refusal
    ? storageStatusAnswer(storageStatus(refusal), refusal.message ?? '')
    : { status: 200, error: null }

/** An upload's answer: 409 (already stored under this random name) is stored too. */
export function uploadOutcome(answer: Answer): UploadOutcome {
  const outcome = classify(answer, undefined, ({ status }) =>
    status === 409 ? DELIVERED : undefined,
  )
  // A file the server will not take is refused as a file, whatever the status said.
  return outcome.kind === 'refused' && outcome.reason !== 'unavailable'
    ? { ...outcome, reason: 'fileRefused' }
    : outcome
}

async function uploadStandard(file: SealedUpload, target: UploadTarget): Promise<UploadOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<Answer>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 0, error: { message: 'upload timed out' } }),
      STANDARD_UPLOAD_TIMEOUT_MS,
    )
  })
  const upload = Promise.resolve(
    target.storage.from(target.bucket).upload(file.object, file.ciphertext, {
      contentType: ATTACHMENT_CONTENT_TYPE,
      upsert: false,
    }),
  ).then(
    ({ error }) => storageAnswer(error),
    (error: unknown): Answer => ({ status: 0, error: { message: String(error) } }),
  )
  try {
    return uploadOutcome(await Promise.race([upload, timedOut]))
  } finally {
    clearTimeout(timer)
  }
}

/**
 * One resumable upload. `resume`: go on from a try cut earlier (its URL remembered); otherwise a
 * new upload, whose creation carries no data, so that for an object already stored it costs one
 * request (answered 409). `confirmed` says whether the server itself said the last bytes were in:
 * tus-js-client also reports success when a HEAD finds every byte there, which a server that died
 * before recording the object still says.
 */
function uploadResumable(
  file: SealedUpload,
  target: UploadTarget,
  onBytes: (sent: number) => void,
  resume: boolean,
): Promise<{ outcome: UploadOutcome; confirmed: boolean }> {
  const remembered = resume && target.resumeKeyPrefix !== null
  let lastMethod = ''
  // Where XMLHttpRequest does not exist (the service worker), tus-js-client's own stack cannot run.
  const httpStack =
    target.httpStack ?? (typeof XMLHttpRequest === 'undefined' ? fetchHttpStack : null)
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
      uploadDataDuringCreation: resume,
      storeFingerprintForResuming: remembered,
      removeFingerprintOnSuccess: true,
      retryDelays: RESUMABLE_RETRY_DELAYS_MS,
      // A creation answered 409 names an object already stored: nothing to try again.
      onShouldRetry: (error, attempt, options) =>
        !(
          error.originalRequest?.getMethod() === 'POST' &&
          error.originalResponse?.getStatus() === 409
        ) &&
        (defaultOptions.onShouldRetry?.(error, attempt, options) ?? false),
      ...(httpStack && { httpStack }),
      fingerprint: () => Promise.resolve(`${target.resumeKeyPrefix ?? ''}${file.object}`),
      onAfterResponse: (request) => {
        lastMethod = request.getMethod()
      },
      onProgress: (sent) => onBytes(sent),
      onSuccess: () => resolve({ outcome: DELIVERED, confirmed: lastMethod !== 'HEAD' }),
      onError: (error) => {
        const response = (error as DetailedError).originalResponse
        const outcome = uploadOutcome(
          storageStatusAnswer(
            response ? response.getStatus() : 0,
            `resumable upload: ${String(error).slice(0, 300)}`,
          ),
        )
        resolve({ outcome, confirmed: true })
      },
    })
    if (!remembered) {
      upload.start()
      return
    }
    upload
      .findPreviousUploads()
      .then(([latest]) => {
        if (latest) upload.resumeFromPreviousUpload(latest)
      })
      .catch(() => undefined)
      .finally(() => upload.start())
  })
}

/**
 * A large file: resumed where an earlier try left it, and, where success rests on a HEAD alone,
 * checked with one request for a new upload of the same name: 409 says it is stored; a new upload
 * says it is not, and that upload sends it again.
 */
async function uploadLarge(
  file: SealedUpload,
  target: UploadTarget,
  onBytes: (sent: number) => void,
): Promise<UploadOutcome> {
  const first = await uploadResumable(file, target, onBytes, true)
  if (first.outcome.kind !== 'delivered' || first.confirmed) return first.outcome
  const again = await uploadResumable(file, target, onBytes, false)
  // The check itself refused (a byte cap this very file filled): the server's word stands.
  return again.outcome.kind === 'refused' ? DELIVERED : again.outcome
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
    const reserved = target.reserve ? await target.reserve(file) : DELIVERED
    if (reserved.kind !== 'delivered') return reserved
    const outcome =
      file.ciphertext.size > RESUMABLE_THRESHOLD_BYTES
        ? await uploadLarge(file, target, (sent) => onProgress?.(done + sent, total))
        : await uploadStandard(file, target)
    if (outcome.kind !== 'delivered') return outcome
    done += file.ciphertext.size
    onStored?.(file.object)
    onProgress?.(done, total)
  }
  return DELIVERED
}

/** What a download came to: the ciphertext, or why not (the server's words: console only). */
export type DownloadAnswer =
  | { kind: 'file'; ciphertext: Blob }
  | { kind: 'not-found' | 'offline' | 'busy' | 'failed'; detail: unknown }

/** Storage's refusal of a download, as what the person is told. */
export function downloadRefused(error: unknown): 'not-found' | 'offline' | 'busy' | 'failed' {
  const outcome = classify(
    storageAnswer((error ?? {}) as StorageRefusal),
    undefined,
    ({ status }) =>
      status === 404 ? { kind: 'refused', reason: 'notFound', detail: '' } : undefined,
  )
  if (outcome.kind === 'delivered' || outcome.kind === 'server-error') return 'failed'
  if (outcome.kind === 'no-answer') return outcome.reason === 'busy' ? 'busy' : 'offline'
  return outcome.reason === 'notFound' ? 'not-found' : 'failed'
}

/**
 * Fetches `object` from `bucket` with `client`'s credentials and `headers` (a visitor's mailbox
 * token, in a header Storage's policy reads: never in the address).
 */
export async function downloadObject(
  client: {
    storage: {
      from(bucket: string): {
        setHeader(name: string, value: string): unknown
        download(object: string): PromiseLike<{ data: Blob | null; error: unknown }>
      }
    }
  },
  bucket: string,
  object: string,
  headers: Record<string, string> = {},
): Promise<DownloadAnswer> {
  try {
    const api = client.storage.from(bucket)
    for (const [name, value] of Object.entries(headers)) api.setHeader(name, value)
    const { data, error } = await api.download(object)
    if (data && !error) return { kind: 'file', ciphertext: data }
    return { kind: downloadRefused(error), detail: error }
  } catch (error) {
    return { kind: 'offline', detail: error }
  }
}
