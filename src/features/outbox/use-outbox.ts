import { useEffect, useSyncExternalStore } from 'react'
import { whenIdle } from '../../lib/idle-browser'
import { loadBackend, notLoaded } from '../../lib/load-backend'
import { sendQueuedWith } from './send-queued'
import { createOutbox, SERVER_SNAPSHOT, type OutboxSnapshot } from './outbox-engine'

// The status line is on every page: a visitor who never queued anything downloads neither the
// backend client nor the toasts' words.
const announcer = () => import('../contact/announce-results')

/** This page's outbox: sends through Supabase and tells the visitor with toasts. */
export const outbox = createOutbox({
  send: (item, signal) =>
    loadBackend().then((backend) => sendQueuedWith(backend)(item, signal), notLoaded),
  announce: (result) => void announcer().then(({ announceFlush }) => announceFlush(result)),
  preload: () => Promise.all([loadBackend(), announcer()]).then(() => undefined),
})

/**
 * The connection and the outbox's counts, for the status line. Starts the outbox while mounted,
 * once the page is idle after hydration.
 */
export function useOutbox(): OutboxSnapshot {
  useEffect(() => {
    let stop: (() => void) | undefined
    const cancel = whenIdle(() => (stop = outbox.start()))
    return () => {
      cancel()
      stop?.()
    }
  }, [])
  return useSyncExternalStore(outbox.subscribe, outbox.getSnapshot, () => SERVER_SNAPSHOT)
}
