import { ATTACHMENT_LIMITS, ATTACHMENT_OBJECT_NAME } from '../../shared/submission/attachments'
import { KEY_ID_PATTERN } from '../../shared/submission/sealed-row'
import { z } from '../../shared/zod'
import { failureMessages } from '../contact/contact-copy'
import { threadFailureMessages } from '../replies/thread-copy'
import type { WithLock } from './outbox-lock'
import { retryDelay } from './outbox-definitions'
import { itemOf, requestBackgroundSync, type OutboxStore } from './outbox-store'
import type {
  FlushResult,
  OutboxFailureReason,
  OutboxRecord,
  RefusedRecord,
  SendOutcome,
  SendQueued,
} from './outbox-types'

const outboxFailureMessages: Record<OutboxFailureReason, string> = {
  ...failureMessages,
  ...threadFailureMessages,
}

const ARMOR_FRAME =
  /^-----BEGIN AGE ENCRYPTED FILE-----\r?\n[\s\S]+\r?\n-----END AGE ENCRYPTED FILE-----\r?\n?$/
const sealedText = z
  .string()
  .max(256 * 1024)
  .regex(ARMOR_FRAME)
const bookkeeping = {
  queued_at: z.iso.datetime(),
  attempts: z.int().nonnegative(),
  next_attempt_at: z.number(),
  state: z.enum(['pending', 'needs-attention']),
  last_error: z.string().nullable(),
}
const HEX_64 = /^[0-9a-f]{64}$/

/**
 * A stored record is checked again before it is sent: storage can be altered on disk or written by
 * another version of the site, and only a well-formed sealed item may leave: an inquiry with its
 * mailbox hash, or a conversation's message, each as `v: 1`. Anything else fails here and waits for
 * the visitor.
 */
const recordSchemas = {
  inquiry: z
    .object({
      v: z.literal(1),
      kind: z.literal('inquiry'),
      id: z.uuid(),
      key_id: z.string().regex(KEY_ID_PATTERN),
      sealed: sealedText,
      mailbox_hash: z.string().regex(/^\\x[0-9a-f]{64}$/),
      attachments: z
        .array(
          z.object({
            object: z.string().regex(ATTACHMENT_OBJECT_NAME),
            ciphertext: z.instanceof(Blob),
          }),
        )
        .max(ATTACHMENT_LIMITS.files)
        .optional(),
      ...bookkeeping,
    })
    .refine(
      (record) =>
        (record.attachments ?? []).every((file) => file.object.startsWith(`${record.id}/`)),
      "every attachment's object is under the inquiry's id",
    ),
  message: z.object({
    v: z.literal(1),
    kind: z.literal('message'),
    id: z.uuid(),
    mailbox_token: z.string().regex(HEX_64),
    sealed: sealedText,
    ...bookkeeping,
  }),
}

/** Checks a stored record against the schema of the kind it claims (an inquiry otherwise). */
export function checkRecord(stored: unknown) {
  const claims = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<
    string,
    unknown
  >
  const schema = claims.kind === 'message' ? recordSchemas.message : recordSchemas.inquiry
  return schema.safeParse(stored)
}

export type FlushDeps = {
  store: OutboxStore
  send: SendQueued
  now: () => number
  withLock: WithLock
  /** Also send records still backing off: for `online`, as the old backoff says nothing now. */
  ignoreSchedule?: boolean
}

/**
 * One pass over the outbox, oldest first, one request at a time, under the lock:
 * - delivered (2xx, or 409 for an id already received): removed at once;
 * - no answer: kept, retried after the backoff; the round stops, as later rows would fail alike;
 * - server error: kept, retried after the backoff; the round goes on;
 * - refused, or not a well-formed record: `needs-attention`, never sent again on its own.
 */
export async function flushOutbox(deps: FlushDeps): Promise<FlushResult> {
  const result = await deps.withLock(() => flushRound(deps))
  if (result) return result
  const counts = await deps.store.counts()
  return { delivered: [], refused: [], counts, nextAttemptAt: null, skipped: true }
}

async function flushRound({
  store,
  send,
  now,
  ignoreSchedule = false,
}: FlushDeps): Promise<FlushResult> {
  const delivered: FlushResult['delivered'] = []
  const refused: RefusedRecord[] = []
  const startedAt = now()
  let stoppedUntil: number | null = null

  for (const stored of await store.list()) {
    // Only what already waits for the visitor is left alone. A record with no state, or one this
    // version does not know, is damaged: marked below, so every count agrees on where it is.
    if (stored.state === 'needs-attention') continue
    const valid = checkRecord(stored)
    if (!valid.success) {
      const message = failureMessages.damaged
      const detail = `stored record failed validation: ${valid.error.issues.map((issue) => issue.path.join('.')).join(', ')}`
      if (await store.mark(stored.id, { state: 'needs-attention', last_error: message })) {
        refused.push({ record: stored, message, detail })
      }
      continue
    }
    const record = valid.data
    if (!ignoreSchedule && record.next_attempt_at > startedAt) continue

    const outcome = await sendOnce(send, record)
    if (outcome.kind === 'delivered') {
      await store.remove(record.id)
      delivered.push(record)
      continue
    }
    const attempts = record.attempts + 1
    const message = outboxFailureMessages[outcome.reason]
    if (outcome.kind === 'refused') {
      if (
        await store.mark(record.id, { state: 'needs-attention', attempts, last_error: message })
      ) {
        refused.push({ record, message, detail: outcome.detail })
      }
      continue
    }
    const next = now() + retryDelay(attempts)
    await store.mark(record.id, { attempts, last_error: message, next_attempt_at: next })
    if (outcome.kind === 'no-answer') {
      // Later rows would get no answer either: they wait for this one's retry.
      stoppedUntil = next
      break
    }
  }

  // Read again rather than computed: a row queued during this round (its own flush skipped for
  // the lock) must be counted and scheduled too.
  const remaining = await store.list()
  const pending = remaining.filter((record) => record.state === 'pending')
  // Still waiting: should the page close, the service worker sends it once the connection is back
  // (Background Sync; nothing where the browser lacks it, or in the worker itself).
  if (pending.length > 0) void requestBackgroundSync()
  return {
    delivered,
    refused,
    counts: { pending: pending.length, needsAttention: remaining.length - pending.length },
    nextAttemptAt: pending.length
      ? (stoppedUntil ?? Math.min(...pending.map((record) => record.next_attempt_at)))
      : null,
    skipped: false,
  }
}

// A send function answers with an outcome; if it throws anyway, keep the record and retry as if
// there were no answer, rather than lose it or stop flushing for good.
async function sendOnce(
  send: SendQueued,
  record: OutboxRecord,
): Promise<SendOutcome<OutboxFailureReason>> {
  try {
    return await send(itemOf(record))
  } catch (error) {
    return { kind: 'no-answer', reason: 'noAnswer', detail: String(error) }
  }
}
