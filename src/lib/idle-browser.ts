/**
 * Runs `work` once the main thread is idle (or after `timeout` ms at the latest), so what a page
 * starts after hydration (the service worker's registration, the outbox) never lengthens the tasks
 * that keep a visitor's first tap waiting. Where requestIdleCallback is missing (Safari), a timer.
 */
export function whenIdle(work: () => void, timeout = 2_000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout })
    return () => cancelIdleCallback(handle)
  }
  const handle = setTimeout(work, 1)
  return () => clearTimeout(handle)
}
