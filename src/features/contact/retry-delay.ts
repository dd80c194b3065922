export const RETRY_BASE_MS = 1_000
export const RETRY_CAP_MS = 30_000

/**
 * How long to wait after the `attempts`-th failed try before the next one: doubling from 1 s and
 * capped at 30 s, so 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s for every later try. Short enough that a
 * visitor whose connection comes back sees the success toast soon; capped so that a long outage
 * costs one request every 30 s at most. Values below 1 count as 1. Alone in this module so the
 * page's start-up code can use it without loading the outbox.
 */
export function retryDelay(attempts: number): number {
  const tries = Number.isFinite(attempts) ? Math.max(1, Math.floor(attempts)) : 1
  return Math.min(RETRY_BASE_MS * 2 ** (tries - 1), RETRY_CAP_MS)
}
