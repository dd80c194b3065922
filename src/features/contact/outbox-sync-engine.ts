import { withPageOutbox } from './contact-dependencies-browser'
import type { ContactSubmission } from './contact-schema'
import { announceOutboxCounts } from './outbox-events-browser'
import { flushOutbox } from './outbox-flush'
import { webLocks } from './outbox-lock'
import type { OutboxCounts, OutboxRecord } from './outbox-store'
import { RETRY_CAP_MS } from './retry-delay'
import { sendToSupabase } from './send-to-supabase'

/** What the page hears from the outbox; the hook turns these into toasts and the status line. */
export type OutboxSyncEvents = {
  delivered: (submission: ContactSubmission) => void
  rejected: (submission: ContactSubmission, message: string) => void
  counts: (counts: OutboxCounts) => void
}

export type OutboxSync = {
  flush: (options?: { ignoreSchedule?: boolean }) => Promise<void>
  list: () => Promise<OutboxRecord[]>
  /** Puts a needs-attention record back in line, due at once, and flushes. */
  resend: (id: string) => Promise<void>
  /** Deletes a record the visitor chose to drop. */
  discard: (id: string) => Promise<void>
  dispose: () => void
}

const FLUSH_LOCK = 'contact-outbox-flush'

/**
 * The browser side of the outbox: flushes it through Supabase under a cross-tab lock, and keeps a
 * retry timer on the backoff schedule. Loaded on demand by `use-outbox-sync.ts`, only once this
 * browser has something queued, so the content pages never download it otherwise.
 */
export function createOutboxSync(events: OutboxSyncEvents): OutboxSync {
  const withLock = webLocks(FLUSH_LOCK)
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let disposed = false

  const scheduleRetry = (at: number | null) => {
    clearTimeout(retryTimer)
    retryTimer = undefined
    if (at === null || disposed) return
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined
        flush().catch((error: unknown) => console.error('The contact outbox could not be flushed:', error))
      },
      Math.max(0, at - Date.now()),
    )
  }

  async function flush(options: { ignoreSchedule?: boolean } = {}): Promise<void> {
    if (disposed) return
    const summary = await withPageOutbox(async (outbox) => {
      if (!navigator.onLine) {
        // Nothing can be sent; the `online` event will flush again.
        events.counts(await outbox.count())
        return null
      }
      return flushOutbox({
        outbox,
        send: sendToSupabase,
        now: Date.now,
        withLock,
        ignoreSchedule: options.ignoreSchedule ?? false,
      })
    })
    if (!summary) return
    summary.delivered.forEach((submission) => events.delivered(submission))
    summary.rejected.forEach(({ submission, message }) => events.rejected(submission, message))
    events.counts({ pending: summary.pending, needsAttention: summary.needsAttention })
    if (summary.skipped) {
      // Another tab (or call) holds the lock and schedules the retries. In case that tab is
      // closed or throttled, keep a fallback of our own, without replacing a timer already set.
      if (summary.pending > 0 && retryTimer === undefined) scheduleRetry(Date.now() + RETRY_CAP_MS)
      return
    }
    if (summary.delivered.length || summary.rejected.length) announceOutboxCounts()
    scheduleRetry(summary.nextAttemptAt)
  }

  return {
    flush,
    async list() {
      return withPageOutbox((outbox) => outbox.list())
    },
    async resend(id) {
      const record = await withPageOutbox((outbox) => outbox.get(id))
      if (!record) return
      await withPageOutbox((outbox) =>
        outbox.update({ ...record, state: 'pending', attempts: 0, nextAttemptAt: Date.now(), lastError: null }),
      )
      await flush({ ignoreSchedule: true })
    },
    async discard(id) {
      const counts = await withPageOutbox(async (outbox) => {
        await outbox.remove(id)
        return outbox.count()
      })
      events.counts(counts)
      announceOutboxCounts()
    },
    dispose() {
      disposed = true
      clearTimeout(retryTimer)
    },
  }
}
