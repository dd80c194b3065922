/**
 * Runs `fn` only if the lock is free right now; resolves undefined when someone else holds it.
 * One tab (and one call within it) sends at a time; a second flusher skips its round rather than
 * wait, because the holder is already sending everything that is due.
 */
export type WithLock = <T>(fn: () => Promise<T>) => Promise<T | undefined>

const pageMutexes = new Map<string, WithLock>()

/**
 * A lock shared by every tab of the origin through Web Locks (`ifAvailable`). Where
 * `navigator.locks` is missing (no secure context, tests) it falls back to a mutex for this page;
 * tabs are then not coordinated, and the database's 409 on a replayed id keeps that harmless.
 */
export function outboxLock(
  name: string,
  locks: LockManager | null = globalThis.navigator?.locks ?? null,
): WithLock {
  if (locks) {
    return (fn) => locks.request(name, { ifAvailable: true }, (lock) => (lock ? fn() : undefined))
  }
  let mutex = pageMutexes.get(name)
  if (!mutex) {
    let held = false
    mutex = async (fn) => {
      if (held) return undefined
      held = true
      try {
        return await fn()
      } finally {
        held = false
      }
    }
    pageMutexes.set(name, mutex)
  }
  return mutex
}
