/**
 * The outbox's words: the status line on every page and the review of refused messages.
 */

/** The offline indicator, the messages waiting, and the review of messages the backend refused. */
export const outboxCopy = {
  offline: 'Offline: messages you send wait on this device',
  waiting: (count: number) => `${count} ${count === 1 ? 'message' : 'messages'} waiting to send`,
  /** Added after `waiting` where the browser has no Background Sync (Firefox, Safari). */
  nextVisit: ' when you next open this site online',
  notDelivered: (count: number) =>
    `${count} ${count === 1 ? 'message was' : 'messages were'} not delivered`,
  reviewTitle: 'Messages not sent',
  reviewIntro:
    'Our server refused these messages. They are kept on this device, encrypted, so they cannot be edited here: send them again as they are, or discard them and write a new one.',
  queuedAt: (time: string) => `Queued at ${time}`,
  resend: 'Resend',
  discard: 'Discard',
  close: 'Close',
  empty: 'Nothing is waiting for you.',
} as const

/** "14:05" today, "3 Mar 2025, 14:05" on another day: enough to tell a visitor's messages apart. */
export function formatQueuedAt(iso: string, now = new Date()): string {
  const at = new Date(iso)
  const sameDay = at.toDateString() === now.toDateString()
  return at.toLocaleString(
    undefined,
    sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  )
}
