import type { SealedRow } from '../../shared/database-types'
import type { FailureReason } from './contact-copy'
import type { SendQueued } from './outbox/outbox-flush'
import type { QueuedAttachment } from './outbox/outbox-store'
import { sendThreadMessage } from './thread-rpc'

/**
 * What one attempt to insert a sealed row came to. The form and the outbox act on this, never on
 * HTTP details:
 * - delivered: 201, or 409 on the primary key (this very row was already received);
 * - no-answer: nothing usable came back: offline, timeout, connection reset, a gateway (502, 503,
 *   504, Cloudflare's 520-524), 408, 429, or any answer but an insert's 201 that carries no error
 *   (a captive portal, a proxy). Queued and retried;
 * - server-error: the backend answered with another 5xx. Retried by the outbox; the form keeps
 *   the values and says so;
 * - refused: any other answer. Resending the same row will not help.
 * `reason` picks the visitor's sentence in contact-copy.ts; `detail` (status, code, the server's
 * own words) is for the console only, and never holds the row.
 */
export type SendOutcome<Reason extends string = FailureReason> =
  | { kind: 'delivered' }
  | { kind: 'no-answer' | 'server-error' | 'refused'; reason: Reason; detail: string }

/** `signal`, when given, stops the insert early (the form's deadline); it then counts as no answer. */
export type SendSealed = (row: SealedRow, signal?: AbortSignal) => Promise<SendOutcome>

/** The part of supabase-js's answer this code reads (spec §7: only the error is inspected). */
export type InsertAnswer = {
  error: { message?: string; code?: string } | null
  status: number
}

/**
 * How long one insert may take before it counts as "no answer". A sealed brief is 1 to 24 KB;
 * on a poor mobile link (2G/EDGE, 1 s round trips, loss) the TLS handshake, the CORS preflight and
 * the upload take 5 to 10 s, so 20 s leaves room for the slow-but-working case. Waiting longer
 * helps nobody: after 20 s the row is queued (its id makes a late duplicate harmless) and the
 * outbox keeps trying while the visitor moves on. "Still sending" shows from 4 s. The form's own
 * deadline (SUBMIT_DEADLINE_MS) may stop it sooner, when loading the code took part of that time.
 */
export const SEND_TIMEOUT_MS = 20_000

const PRIMARY_KEY_CONSTRAINT = '"contact_submissions_pkey"'

export function classifyInsertAnswer({ error, status }: InsertAnswer): SendOutcome {
  // PostgREST answers a stored insert (return=minimal) with 201 and nothing else. supabase-js also
  // resolves without an error for a 200 or 204 with an empty body, or a 404 with `[]`: a proxy, a
  // paused project or a captive portal. Counted as stored, the message would be dropped unsent.
  if (!error) {
    return status === 201
      ? { kind: 'delivered' }
      : {
          kind: 'no-answer',
          reason: 'noAnswer',
          detail: `HTTP ${status} without an error, not an insert's 201`,
        }
  }
  const code = error.code ?? ''
  const serverText = error.message?.trim() ?? ''
  // The id is made in the browser: a duplicate id means this very row was already stored.
  if (status === 409 && code === '23505' && serverText.includes(PRIMARY_KEY_CONSTRAINT))
    return { kind: 'delivered' }

  const detail = `HTTP ${status}${code ? ` ${code}` : ''}: ${serverText.slice(0, 300)}`
  const outcome = (
    kind: 'no-answer' | 'server-error' | 'refused',
    reason: FailureReason,
  ): SendOutcome => ({
    kind,
    reason,
    detail,
  })
  // supabase-js resolves with status 0 when fetch failed (offline, reset, CORS, our timeout).
  if (status === 0 || status < 300) return outcome('no-answer', 'noAnswer')
  if (status === 429) return outcome('no-answer', 'busy')
  // Gateways, and Cloudflare's own 52x in front of Supabase (524: the origin answered too late,
  // so the row may well be stored; queued under its id, a retry answers 409 and nothing is lost).
  if ([408, 502, 503, 504, 520, 521, 522, 523, 524].includes(status))
    return outcome('no-answer', 'noAnswer')
  if (status >= 500) return outcome('server-error', 'serverError')
  if (status === 413 || code === '54000') return outcome('refused', 'tooLarge')
  // A key_id the database does not know or has retired: the page was built with an old key.
  if (code === '23503' || /key_id|submission_keys/.test(serverText))
    return outcome('refused', 'staleKey')
  if (status === 404 || status === 405 || code === 'PGRST205')
    return outcome('refused', 'unavailable')
  // Spec §8: "Please try again later." when the answer carries no words at all; otherwise the
  // sentence stands in for the server's own words, which the visitor never sees.
  return outcome('refused', serverText || code ? 'notAccepted' : 'fallback')
}

/**
 * Aborts at the send timeout or when `caller` aborts, whichever comes first. By hand, not with
 * `AbortSignal.any`: Safari has that only since 17.4, and an older iPhone would get a TypeError,
 * so every message would be queued instead of sent.
 */
function insertSignal(caller: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(SEND_TIMEOUT_MS)
  if (!caller) return timeout
  const either = new AbortController()
  for (const source of [timeout, caller]) {
    if (source.aborted) either.abort(source.reason)
    else source.addEventListener('abort', () => either.abort(source.reason))
  }
  return either.signal
}

/** The real sender: a plain insert (return=minimal), so anon needs no SELECT right. */
export const sendSealed: SendSealed = async (row, signal) => {
  try {
    // Loading the client can fail too (offline before the service worker has cached it).
    const { supabase } = await import('../../lib/supabase')
    const answer = await supabase
      .from('contact_submissions')
      .insert(row)
      .abortSignal(insertSignal(signal))
    return classifyInsertAnswer(answer)
  } catch (error) {
    return { kind: 'no-answer', reason: 'noAnswer', detail: String(error) }
  }
}

// The conversation's calls and the outbox's dispatch live in modules of their own, but load with
// this one: every chunk a page's code may import is one more name in the list every page's entry
// carries, which the content pages' budget cannot afford. Import them from here.
export {
  classifyAddAnswer,
  classifyReadAnswer,
  readThread,
  sendThreadMessage,
  type ReadOutcome,
} from './thread-rpc'
export { threadFailureMessages, type ThreadFailureReason } from './thread-copy'

/**
 * Uploads sealed attachments (attachments/upload-attachments.ts, with tus-js-client: loaded only
 * when there are files to send).
 */
export const uploadAttachments = async (
  files: readonly QueuedAttachment[],
  onProgress?: (sent: number, total: number) => void,
): Promise<SendOutcome> => {
  try {
    const uploader = await import('./attachments/upload-attachments')
    return await uploader.uploadAttachments(files, onProgress)
  } catch (error) {
    return { kind: 'no-answer', reason: 'noAnswer', detail: String(error) }
  }
}

/**
 * Sends a queued item where it goes: an inquiry's files to Storage and then its row to the table
 * (a row never names an object not stored), a conversation's message to `add_to_thread` (the
 * outbox's sender).
 */
export const sendQueued: SendQueued = async (item, signal) => {
  if (item.kind === 'message') return sendThreadMessage(item.message, signal)
  if (item.attachments?.length) {
    const uploaded = await uploadAttachments(item.attachments)
    if (uploaded.kind !== 'delivered') return uploaded
  }
  return sendSealed(item.row, signal)
}
