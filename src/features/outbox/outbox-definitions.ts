/**
 * What every page needs to know of the outbox without opening it: its database's name, the shape
 * of the counts, the retry schedule, and whether this browser ever queued anything. The store
 * itself (outbox-store.ts) loads only when a page opens it: a visitor who never queued anything
 * downloads none of it.
 */

export const OUTBOX_DB_NAME = 'contact-outbox-sealed'
/** The tabs' and the worker's one message about the counts, and the one sender's lock. */
export const CHANNEL_NAME = 'contact-outbox'
export const LOCK_NAME = 'contact-outbox-send'

export type OutboxCounts = { pending: number; needsAttention: number }
export const NO_COUNTS: OutboxCounts = { pending: 0, needsAttention: 0 }

/**
 * How long to wait after the `attempts`-th failed try: 1 s doubling to a 30 s cap. Short enough
 * that a returning connection is noticed soon; capped so a long outage costs one request per 30 s.
 */
export const RETRY_CAP_MS = 30_000
export function retryDelay(attempts: number): number {
  // A count that is not a whole number ≥ 1 (none is written, but a timer must never get NaN,
  // which would fire at once, again and again) counts as the first try.
  const tries = Number.isFinite(attempts) ? Math.max(1, Math.floor(attempts)) : 1
  return Math.min(1_000 * 2 ** (tries - 1), RETRY_CAP_MS)
}

/**
 * The names of this origin's IndexedDB databases, so a page opens (and creates) the outbox only
 * once something was queued. Null where the browser cannot list them (Firefox before 126).
 */
export async function existingDatabases(): Promise<Set<string> | null> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return null
  return new Set((await indexedDB.databases()).map((database) => database.name ?? ''))
}
