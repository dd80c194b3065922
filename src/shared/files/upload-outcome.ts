/**
 * What an upload to Storage came to, from its HTTP status or supabase-js's answer: one rule for
 * every uploader (upload-files.ts in the pages, the contact outbox's service worker with plain
 * fetch), and the same rules as the row's insert (src/features/contact/send-to-supabase.ts). No
 * upload code here, so the service worker carries these few lines and not tus-js-client.
 */

/** Why files were not stored, for each app's sentence (the site's reasons use the same words). */
export type UploadFailureReason =
  'noAnswer' | 'busy' | 'serverError' | 'unavailable' | 'fileRefused'

/**
 * - delivered: every file stored (or already stored under its name);
 * - no-answer: offline, a timeout, a gateway, 429: try again later;
 * - server-error: another 5xx;
 * - refused: the policy, the bucket or the route said no; the same files will not fare better.
 * `detail` (status, the server's words) is for the console only.
 */
export type UploadOutcome =
  | { kind: 'delivered' }
  | { kind: 'no-answer' | 'server-error' | 'refused'; reason: UploadFailureReason; detail: string }

/** An HTTP status, as an outcome: the same rules as the row's insert (send-to-supabase.ts). */
export function classifyUploadStatus(status: number, detail: string): UploadOutcome {
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

/** A refusal from Storage: supabase-js's error, or the body of a plain fetch's answer. */
export type StorageRefusal = { status?: unknown; statusCode?: unknown; message?: string }

export type StorageAnswer = { error: StorageRefusal | null }

/**
 * The status a refusal really carries: Storage answers refusals with HTTP 400 and the real status
 * in the body's `statusCode` ("409" for an object that already exists, "404" for none), so that
 * one decides, the HTTP status only without it; 0 when neither says (no answer at all).
 */
export function storageStatus({ status, statusCode }: StorageRefusal): number {
  const real = Number(statusCode)
  if (Number.isInteger(real) && real > 0) return real
  return typeof status === 'number' ? status : 0
}

/** supabase-js's answer to a standard upload, as an outcome. */
export function classifyStandardUpload({ error }: StorageAnswer): UploadOutcome {
  if (!error) return { kind: 'delivered' }
  const status = storageStatus(error)
  return classifyUploadStatus(status, `HTTP ${status}: ${(error.message ?? '').slice(0, 300)}`)
}
