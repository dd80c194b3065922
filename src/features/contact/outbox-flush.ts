import type { ZodError } from 'zod'
import { contactSubmissionSchema, type ContactSubmission } from './contact-schema'
import type { WithLock } from './outbox-lock'
import type { Outbox, OutboxRecord } from './outbox-store'
import { retryDelay } from './retry-delay'
import type { SendOutcome, SendSubmission } from './send-outcome'

export type FlushDeps = {
  outbox: Outbox
  send: SendSubmission
  now: () => number
  withLock: WithLock
  /**
   * Also send pending records whose `nextAttemptAt` has not come yet. For the `online` event: the
   * backoff built up while offline says nothing about the connection that has just come back.
   */
  ignoreSchedule?: boolean
}

export type RejectedSubmission = { submission: ContactSubmission; message: string }

export type FlushSummary = {
  /** Received by the backend during this round, and already removed from the outbox. */
  delivered: ContactSubmission[]
  /** Marked `needs-attention` during this round (refused by the backend, or no longer valid). */
  rejected: RejectedSubmission[]
  /** Records still waiting to be sent. */
  pending: number
  /** Records waiting for the visitor (from this round or earlier ones). */
  needsAttention: number
  /** When the next round is worth running (epoch ms), or null if nothing is pending. */
  nextAttemptAt: number | null
  /** Set when another flusher held the lock: this call sent nothing. */
  skipped?: true
}

/**
 * Sends what is due in the outbox, oldest first, one at a time, under the lock. Each record is
 * validated again first: it may have been written by an older version of the site, or altered on
 * disk, and a row the database would refuse must go back to the visitor, not be sent blindly.
 *
 * - delivered (2xx, or 409 for an id already received): removed at once and reported;
 * - unreachable: kept, tried again after the backoff; the round stops, since the network is down;
 * - retryable (5xx, 429): kept, tried again after the backoff; the round goes on;
 * - rejected (other answers), or invalid: kept as `needs-attention` with the message, reported,
 *   and never sent again on its own.
 */
export async function flushOutbox(deps: FlushDeps): Promise<FlushSummary> {
  const summary = await deps.withLock(() => flushRound(deps))
  if (summary) return summary
  const counts = await deps.outbox.count()
  // No next time: the flusher holding the lock schedules its own retries.
  return { delivered: [], rejected: [], ...counts, nextAttemptAt: null, skipped: true }
}

async function flushRound({
  outbox,
  send,
  now,
  ignoreSchedule = false,
}: FlushDeps): Promise<FlushSummary> {
  const delivered: ContactSubmission[] = []
  const rejected: RejectedSubmission[] = []
  let networkRetryAt: number | null = null
  const startedAt = now()

  for (const record of await outbox.list()) {
    if (record.state !== 'pending') continue
    if (!ignoreSchedule && record.nextAttemptAt > startedAt) continue

    const valid = contactSubmissionSchema.safeParse(record.submission)
    if (!valid.success) {
      const message = validationMessage(valid.error)
      // Reported only if still there: the visitor may have discarded it meanwhile.
      if (await outbox.update({ ...record, state: 'needs-attention', lastError: message })) {
        rejected.push({ submission: record.submission, message })
      }
      continue
    }

    const outcome = await sendOnce(send, valid.data)
    if (outcome.kind === 'delivered') {
      await outbox.remove(record.submission.id)
      delivered.push(valid.data)
      continue
    }
    const attempts = record.attempts + 1
    if (outcome.kind === 'rejected') {
      if (await outbox.update(failed(record, attempts, 'needs-attention', outcome.message))) {
        rejected.push({ submission: record.submission, message: outcome.message })
      }
      continue
    }
    const retry = failed(record, attempts, 'pending', outcome.message, now() + retryDelay(attempts))
    await outbox.update(retry)
    if (outcome.kind === 'unreachable') {
      // Later records would fail the same way; they wait for this one's retry.
      networkRetryAt = retry.nextAttemptAt
      break
    }
  }

  // Read again, not computed from the first list: a record queued during this round (whose own
  // flush was skipped for the lock) must count and get its retry time.
  const remaining = await outbox.list()
  const pending = remaining.filter((record) => record.state === 'pending')
  const earliest = pending.length
    ? Math.min(...pending.map((record) => record.nextAttemptAt))
    : null
  return {
    delivered,
    rejected,
    pending: pending.length,
    needsAttention: remaining.length - pending.length,
    nextAttemptAt: pending.length ? (networkRetryAt ?? earliest) : null,
  }
}

function failed(
  record: OutboxRecord,
  attempts: number,
  state: OutboxRecord['state'],
  message: string,
  nextAttemptAt = record.nextAttemptAt,
): OutboxRecord {
  return { ...record, attempts, state, lastError: message, nextAttemptAt }
}

// A send function should answer with an outcome; if it throws anyway, keep the record and retry
// as if the network were down, rather than lose it or stop flushing for good.
async function sendOnce(send: SendSubmission, submission: ContactSubmission): Promise<SendOutcome> {
  try {
    return await send(submission)
  } catch (error) {
    return { kind: 'unreachable', message: error instanceof Error ? error.message : String(error) }
  }
}

function validationMessage(error: ZodError): string {
  return [...new Set(error.issues.map((issue) => issue.message))].join(' ')
}
