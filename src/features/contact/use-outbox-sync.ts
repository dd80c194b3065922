import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { ContactSubmission } from './contact-schema'
import { onOutboxChanged, onOutboxCountsAnnounced } from './outbox-events-browser'
import { outboxMayHaveRecords, peekOutboxCounts } from './outbox-peek-browser'
import type { OutboxCounts } from './outbox-store'
import type { OutboxSync } from './outbox-sync-engine'
import { retryDelay } from './retry-delay'
import { canRestoreIntoForm, returnSubmission } from './returned-submissions'
import { showFailedToast, showSentToast } from './submit-toasts'

const subscribeToConnection = (listener: () => void) => {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

/**
 * The one owner of the online/offline subscription and the outbox flush triggers, mounted once in
 * the layout: a flush on start (if this browser has an outbox), when the connection returns (at
 * once, ignoring the backoff), when the page becomes visible, when a submission is queued, and on
 * the engine's retry timer. Delivered and refused submissions become the spec's toasts.
 */
export function useOutboxSync() {
  const online = useSyncExternalStore(subscribeToConnection, () => navigator.onLine, () => true)
  const [counts, setCounts] = useState<OutboxCounts>({ pending: 0, needsAttention: 0 })
  const syncRef = useRef<Promise<OutboxSync> | null>(null)

  const engine = useCallback((): Promise<OutboxSync> => {
    syncRef.current ??= import('./outbox-sync-engine').then(
      ({ createOutboxSync }) => {
        const sync: OutboxSync = createOutboxSync({
          delivered: showSentToast,
          rejected: (submission, message) => giveBack(submission, message, sync),
          counts: setCounts,
        })
        return sync
      },
      (error: unknown) => {
        // Not cached yet and no network: try again on the next trigger.
        syncRef.current = null
        throw error
      },
    )
    return syncRef.current
  }, [])

  useEffect(() => {
    let failedTries = 0
    let retryTimer: ReturnType<typeof setTimeout> | undefined
    const refreshCounts = () =>
      peekOutboxCounts().then(
        (peeked) => {
          setCounts(peeked)
          return peeked
        },
        (error: unknown) => {
          console.error('The contact outbox could not be read:', error)
          return null
        },
      )
    const flush = async (options?: { ignoreSchedule?: boolean }) => {
      clearTimeout(retryTimer)
      // Offline nothing can be sent; the status line still shows what waits.
      if (!navigator.onLine) return void (await refreshCounts())
      try {
        await (await engine()).flush(options)
        failedTries = 0
      } catch (error) {
        // The `online` event often comes before the network really works (phones): the outbox
        // code or the insert cannot load yet. Try again on the backoff while anything waits.
        const waiting = await refreshCounts()
        if (!(error instanceof TypeError)) console.error('The contact outbox could not be flushed:', error)
        if (waiting && waiting.pending > 0) {
          failedTries += 1
          retryTimer = setTimeout(() => void flush(options), retryDelay(failedTries))
        }
      }
    }
    const flushIfAny = () =>
      void outboxMayHaveRecords().then((mayHave) => (mayHave ? flush() : undefined))
    const onOnline = () => void flush({ ignoreSchedule: true })
    const onVisible = () => (document.visibilityState === 'visible' ? flushIfAny() : undefined)

    flushIfAny()
    window.addEventListener('online', onOnline)
    document.addEventListener('visibilitychange', onVisible)
    const stopListening = onOutboxChanged(() => void flush())
    const stopCounts = onOutboxCountsAnnounced(() => void refreshCounts())
    return () => {
      clearTimeout(retryTimer)
      window.removeEventListener('online', onOnline)
      document.removeEventListener('visibilitychange', onVisible)
      stopListening()
      stopCounts()
      void syncRef.current?.then((sync) => sync.dispose()).catch(() => {})
      syncRef.current = null
    }
  }, [engine])

  return { online, counts, engine }
}

/**
 * A queued submission the backend refused: the spec's failure toast, and the values back in the
 * contact form when it is open and empty; otherwise it stays in the outbox, marked for review.
 */
function giveBack(submission: ContactSubmission, message: string, sync: OutboxSync) {
  showFailedToast(message, 'A queued contact submission was refused:', message)
  if (canRestoreIntoForm()) returnSubmission({ submission, release: () => sync.discard(submission.id) })
}
