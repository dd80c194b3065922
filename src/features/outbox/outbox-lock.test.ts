import { afterEach, expect, test, vi } from 'vitest'
import { outboxLock } from './outbox-lock'

afterEach(() => vi.unstubAllGlobals())

/**
 * Web Locks as the browser has them, for exclusive locks: a request without `ifAvailable` waits
 * for the holder; with it, the callback gets null at once when the lock is taken.
 */
function webLocks() {
  const held = new Map<string, Promise<void>>()
  const requests: { name: string; options: LockOptions }[] = []
  const manager = {
    async request(
      name: string,
      options: LockOptions,
      callback: (lock: Lock | null) => Promise<unknown>,
    ) {
      requests.push({ name, options })
      if (held.has(name) && options.ifAvailable) return callback(null)
      while (held.has(name)) await held.get(name)
      let release = () => {}
      held.set(name, new Promise<void>((resolve) => (release = resolve)))
      try {
        return await callback({ name, mode: 'exclusive' })
      } finally {
        held.delete(name)
        release()
      }
    },
  }
  return { locks: manager as unknown as LockManager, requests }
}

function deferred() {
  let resolve = () => {}
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

test('a second flusher skips at once while another tab sends, instead of queuing behind it', async () => {
  const { locks, requests } = webLocks()
  const otherTab = deferred()
  const holding = outboxLock('send', locks)(() => otherTab.promise.then(() => 'other tab done'))

  const ran = vi.fn(async () => 'sent')
  const second = outboxLock('send', locks)(ran)
  const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 50))
  expect(await Promise.race([second, waiting])).toBeUndefined()
  expect(ran).not.toHaveBeenCalled()
  expect(requests.map(({ options }) => options.ifAvailable)).toStrictEqual([true, true])

  otherTab.resolve()
  expect(await holding).toBe('other tab done')
  expect(await outboxLock('send', locks)(ran)).toBe('sent')
})

test('uses the browser’s Web Locks when there are any', async () => {
  const { locks, requests } = webLocks()
  vi.stubGlobal('navigator', { locks })

  expect(await outboxLock('default-manager')(async () => 'ran')).toBe('ran')
  expect(requests.map(({ name }) => name)).toStrictEqual(['default-manager'])
})

test('without Web Locks, one page still sends one round at a time under the same name', async () => {
  vi.stubGlobal('navigator', {})
  const first = deferred()
  const holding = outboxLock('page-only')(() => first.promise.then(() => 1))

  // Another caller on the page asks for the lock by name, not by sharing the function.
  expect(await outboxLock('page-only')(async () => 2)).toBeUndefined()
  expect(await outboxLock('another-name')(async () => 3)).toBe(3)

  first.resolve()
  expect(await holding).toBe(1)
  expect(await outboxLock('page-only')(async () => 4)).toBe(4)
})

test('works where there is no navigator at all (a worker, an old runtime)', async () => {
  vi.stubGlobal('navigator', undefined)
  expect(await outboxLock('no-navigator')(async () => 'ran')).toBe('ran')
})

test('without Web Locks, a round that fails frees the lock for the next one', async () => {
  const lock = outboxLock('page-failure', null)
  await expect(lock(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
  expect(await lock(async () => 'next round')).toBe('next round')
})
