import type { ThreadView } from '../../shared/database-types'
import { z } from '../../shared/zod'
import type { OutboxFailureReason } from './outbox/outbox-flush'
import type { QueuedThreadMessage } from './outbox/outbox-store'
import { SEND_TIMEOUT_MS, type InsertAnswer, type SendOutcome } from './send-to-supabase'

/**
 * The conversation's two calls to Supabase (`read_thread`, `add_to_thread`), through the site's one
 * client, with typed outcomes a pure function classifies; no UI here. The mailbox token goes to
 * these two calls only, in the request body (never a URL); the receipt and the key never come here.
 */

/** What opening a conversation came to. */
export type ReadOutcome =
  | { kind: 'thread'; thread: ThreadView }
  /** No inquiry has this mailbox (a wrong receipt, or one deleted). Counted as a guess. */
  | { kind: 'no-match' }
  /** 429: too many guesses from this network, or too many reads of this mailbox. */
  | { kind: 'limited'; scope: 'network' | 'mailbox'; retryAt: number }
  /** Offline, a gateway, a timeout, an answer that is not the function's. */
  | { kind: 'no-answer'; detail: string }
  /** Any other refusal or server error. */
  | { kind: 'failed'; detail: string }

export type RpcAnswer = InsertAnswer & { data: unknown }

/**
 * How long a limit lasts at most, by its code (supabase/migrations/…_conversation.sql,
 * private.thread_limits: 10 guesses per 10 minutes per network, 60 reads and 10 messages an hour
 * per mailbox). supabase-js does not hand over the Retry-After header, so the page names the time
 * by which the window has surely passed.
 */
export const LIMIT_WINDOW_MS = {
  thread_network_limit: 10 * 60_000,
  thread_read_limit: 60 * 60_000,
  thread_write_limit: 60 * 60_000,
} as const

const GATEWAYS = [408, 502, 503, 504, 520, 521, 522, 523, 524]

const messageRowSchema = z.object({
  id: z.uuid(),
  direction: z.enum(['visitor', 'agency']),
  sealed: z.string(),
  created_at: z.string(),
})
const threadViewSchema = z.object({
  reference: z.string(),
  status: z.enum(['received', 'answered', 'closed']),
  delete_by: z.string().nullable(),
  messages: z.array(messageRowSchema).min(1),
})

const describe = ({ error, status }: InsertAnswer) =>
  `HTTP ${status}${error?.code ? ` ${error.code}` : ''}: ${(error?.message ?? '').trim().slice(0, 300)}`

export function classifyReadAnswer(answer: RpcAnswer, now: number): ReadOutcome {
  const { error, status, data } = answer
  if (!error) {
    if (status === 200 && data === null) return { kind: 'no-match' }
    const thread = threadViewSchema.safeParse(data)
    if (status === 200 && thread.success) return { kind: 'thread', thread: thread.data }
    return { kind: 'no-answer', detail: `HTTP ${status} without the function's answer` }
  }
  if (status === 429) {
    const code = error.code === 'thread_read_limit' ? 'thread_read_limit' : 'thread_network_limit'
    return {
      kind: 'limited',
      scope: code === 'thread_read_limit' ? 'mailbox' : 'network',
      retryAt: now + LIMIT_WINDOW_MS[code],
    }
  }
  if (status === 0 || GATEWAYS.includes(status))
    return { kind: 'no-answer', detail: describe(answer) }
  return { kind: 'failed', detail: describe(answer) }
}

/**
 * What adding a message came to, in the outbox's terms: delivered (stored, or already stored under
 * its id: a replay answers 409 23505), no answer (queued and retried: offline, gateways, 429),
 * a server error (retried), or refused (a closed or unknown conversation, bad armor).
 */
export function classifyAddAnswer(answer: RpcAnswer): SendOutcome<OutboxFailureReason> {
  const { error, status, data } = answer
  const detail = describe(answer)
  if (!error) {
    return status === 200 && typeof data === 'object' && data !== null && 'id' in data
      ? { kind: 'delivered' }
      : {
          kind: 'no-answer',
          reason: 'noAnswer',
          detail: `HTTP ${status} without the function's answer`,
        }
  }
  const code = error.code ?? ''
  if (status === 409 && code === '23505') return { kind: 'delivered' }
  if (status === 409 && code === 'thread_closed')
    return { kind: 'refused', reason: 'threadClosed', detail }
  if (status === 404 && code === 'thread_not_found')
    return { kind: 'refused', reason: 'threadNotFound', detail }
  if (code === 'mailbox_token_invalid') return { kind: 'refused', reason: 'receiptInvalid', detail }
  if (status === 0 || status < 300 || GATEWAYS.includes(status))
    return { kind: 'no-answer', reason: 'noAnswer', detail }
  if (status === 429) return { kind: 'no-answer', reason: 'busy', detail }
  if (status >= 500) return { kind: 'server-error', reason: 'serverError', detail }
  if (status === 413 || code === '54000') return { kind: 'refused', reason: 'tooLarge', detail }
  if (status === 404 || status === 405 || code === 'PGRST202')
    return { kind: 'refused', reason: 'unavailable', detail }
  return { kind: 'refused', reason: error.message || code ? 'notAccepted' : 'fallback', detail }
}

const timeout = () => AbortSignal.timeout(SEND_TIMEOUT_MS)

/** Opens the conversation a mailbox token names. */
export async function readThread(mailboxToken: string): Promise<ReadOutcome> {
  try {
    const { supabase } = await import('../../lib/supabase')
    const answer = await supabase
      .rpc('read_thread', { mailbox_token: mailboxToken })
      .abortSignal(timeout())
    return classifyReadAnswer(answer, Date.now())
  } catch (error) {
    return { kind: 'no-answer', detail: String(error) }
  }
}

/** Adds a sealed message to the conversation (the outbox's sender for `kind: 'message'`). */
export async function sendThreadMessage(
  message: QueuedThreadMessage,
  signal?: AbortSignal,
): Promise<SendOutcome<OutboxFailureReason>> {
  try {
    const { supabase } = await import('../../lib/supabase')
    const answer = await supabase
      .rpc('add_to_thread', {
        mailbox_token: message.mailbox_token,
        message_id: message.id,
        sealed: message.sealed,
      })
      .abortSignal(signal ? either(signal, timeout()) : timeout())
    return classifyAddAnswer(answer)
  } catch (error) {
    return { kind: 'no-answer', reason: 'noAnswer', detail: String(error) }
  }
}

/** Aborts when either does (AbortSignal.any is missing before Safari 17.4). */
function either(first: AbortSignal, second: AbortSignal): AbortSignal {
  const controller = new AbortController()
  for (const source of [first, second]) {
    if (source.aborted) controller.abort(source.reason)
    else source.addEventListener('abort', () => controller.abort(source.reason))
  }
  return controller.signal
}
