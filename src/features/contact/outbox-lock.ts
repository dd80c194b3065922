/**
 * Runs `fn` only if the lock is free right now; resolves to undefined when someone else holds it.
 * The outbox flush uses it so that only one tab (and one call within a tab) sends at a time: a
 * second flusher skips its round instead of waiting, because the one holding the lock is already
 * sending everything that is due.
 */
export type WithLock = <T>(fn: () => Promise<T>) => Promise<T | undefined>

/**
 * A lock shared by every tab of the origin, through the Web Locks API (`ifAvailable`). Where
 * `navigator.locks` is missing (old browsers, tests, no secure context) it falls back to an
 * in-page mutex shared by everything in this page that asks for the same name; tabs are then not
 * coordinated, and the database's 409 on a duplicate id keeps a double send harmless.
 * `locks` is for tests: a fake LockManager, or null for none.
 */
export function webLocks(name: string, locks: LockManager | null = browserLocks()): WithLock {
  if (!locks) return pageMutexNamed(name)
  return async <T>(fn: () => Promise<T>) =>
    locks.request(name, { ifAvailable: true }, async (lock): Promise<T | undefined> =>
      lock ? fn() : undefined,
    )
}

/** A mutex for one page with the same "skip if busy" behaviour as `webLocks`. */
export function inPageMutex(): WithLock {
  let held = false
  return async <T>(fn: () => Promise<T>) => {
    if (held) return undefined
    held = true
    try {
      return await fn()
    } finally {
      held = false
    }
  }
}

const pageMutexes = new Map<string, WithLock>()

function pageMutexNamed(name: string): WithLock {
  let mutex = pageMutexes.get(name)
  if (!mutex) {
    mutex = inPageMutex()
    pageMutexes.set(name, mutex)
  }
  return mutex
}

// Read lazily, never at import time, so this module can be imported where there is no navigator.
function browserLocks(): LockManager | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null
}
