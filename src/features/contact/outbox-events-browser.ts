/**
 * Nudges between the parts of the page and between tabs. Browser only.
 * - "changed": the outbox has something new to send (a submission was queued or put back in line);
 *   the sync hook flushes.
 * - "counts": another tab delivered, refused, resent or discarded something; tabs refresh their
 *   status line without flushing (which would have tabs set each other off in a loop).
 */
export const OUTBOX_CHANGED_EVENT = 'contact-outbox:changed'
const CHANNEL_NAME = 'contact-outbox'

type OutboxMessage = 'changed' | 'counts'

let channel: BroadcastChannel | undefined

function broadcastChannel(): BroadcastChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined
  channel ??= new BroadcastChannel(CHANNEL_NAME)
  return channel
}

function post(message: OutboxMessage): void {
  broadcastChannel()?.postMessage(message)
}

function onMessage(wanted: OutboxMessage, listener: () => void): () => void {
  const remote = broadcastChannel()
  const handler = (event: MessageEvent) => (event.data === wanted ? listener() : undefined)
  remote?.addEventListener('message', handler)
  return () => remote?.removeEventListener('message', handler)
}

export function requestOutboxFlush(): void {
  window.dispatchEvent(new Event(OUTBOX_CHANGED_EVENT))
  post('changed')
}

export function onOutboxChanged(listener: () => void): () => void {
  window.addEventListener(OUTBOX_CHANGED_EVENT, listener)
  const stopRemote = onMessage('changed', listener)
  return () => {
    window.removeEventListener(OUTBOX_CHANGED_EVENT, listener)
    stopRemote()
  }
}

/** Tells the other tabs their status line may be out of date. */
export function announceOutboxCounts(): void {
  post('counts')
}

export function onOutboxCountsAnnounced(listener: () => void): () => void {
  return onMessage('counts', listener)
}
