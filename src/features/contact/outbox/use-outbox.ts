import { useEffect, useSyncExternalStore } from 'react'
import { createOutbox, SERVER_SNAPSHOT, type OutboxSnapshot } from './outbox-engine'

// Loaded when a round first needs them, never with the page: the status line is on every page,
// and a visitor who never queued anything downloads neither the sender nor the toasts' words.
const sender = () => import('../send-to-supabase')
const announcer = () => import('../announce-results')

/**
 * This page's outbox: sends through Supabase and tells the visitor with toasts. It lives here, with
 * the hook, on purpose: in a module of its own the bundler gives it a chunk of its own, fetched by
 * every page (about 0.5 KB gzip more on each, past the content pages' 80 KB budget).
 */
export const outbox = createOutbox({
  send: (item, signal) => sender().then(({ sendQueued }) => sendQueued(item, signal)),
  announce: (result) => void announcer().then(({ announceFlush }) => announceFlush(result)),
  preload: () => Promise.all([sender(), announcer()]).then(() => undefined),
})

/** The connection and the outbox's counts, for the status line. Starts the outbox while mounted. */
export function useOutbox(): OutboxSnapshot {
  useEffect(outbox.start, [])
  return useSyncExternalStore(outbox.subscribe, outbox.getSnapshot, () => SERVER_SNAPSHOT)
}
