// idb recognises requests by the global IDB classes, so they must exist even with a factory per test.
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { wrap, type IDBPDatabase } from 'idb'
import { afterEach, beforeEach, expect, test } from 'vitest'
import type { SealedRow } from '../../../shared/database-types'
import { failureMessages } from '../contact-copy'
import type { SendOutcome, SendSealed } from '../send-to-supabase'
import { flushOutbox, type FlushDeps } from './outbox-flush'
import { outboxLock, type WithLock } from './outbox-lock'
import { OUTBOX_DB_NAME, retryDelay } from './outbox-definitions'
import { OUTBOX_STORE, openOutboxStore, type OutboxStore } from './outbox-store'

const T0 = Date.parse('2025-03-01T09:00:00.000Z')
const armor = (body: string) =>
  `-----BEGIN AGE ENCRYPTED FILE-----\n${body}\n-----END AGE ENCRYPTED FILE-----\n`
const ADA: SealedRow = {
  id: '0b6f1a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  key_id: '0123456789abcdef',
  sealed: armor('YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOQ'),
}
const BOB: SealedRow = {
  id: '1c7a2b63-4d5e-4f60-9b0c-1d2e3f4a5b6c',
  key_id: '0123456789abcdef',
  sealed: armor('Ym9i'),
}

const DELIVERED: SendOutcome = { kind: 'delivered' }
const NO_ANSWER: SendOutcome = {
  kind: 'no-answer',
  reason: 'noAnswer',
  detail: 'HTTP 0: TypeError: Failed to fetch',
}
const SERVER_ERROR: SendOutcome = {
  kind: 'server-error',
  reason: 'serverError',
  detail: 'HTTP 500 XX000: boom',
}
const REFUSED: SendOutcome = {
  kind: 'refused',
  reason: 'staleKey',
  detail: 'HTTP 409 23503: key_id not registered',
}

// Each test gets its own in-memory IndexedDB and its own clock.
let factory: IDBFactory
let store: OutboxStore
let clock: number

beforeEach(async () => {
  factory = new IDBFactory()
  store = await openOutboxStore(factory)
  clock = T0
})
afterEach(() => store.close())

async function rawRecords(): Promise<unknown[]> {
  const db = (await wrap(factory.open(OUTBOX_DB_NAME))) as IDBPDatabase
  const values: unknown[] = await db.getAll(OUTBOX_STORE)
  db.close()
  return values
}

async function putRaw(value: unknown): Promise<void> {
  const db = (await wrap(factory.open(OUTBOX_DB_NAME))) as IDBPDatabase
  await db.put(OUTBOX_STORE, value)
  db.close()
}

/** A send function answering from a script (one outcome per call, per id) that records its calls. */
function scriptedSend(script: Record<string, SendOutcome[]>) {
  const sent: string[] = []
  const send: SendSealed = async (row) => {
    sent.push(row.id)
    const outcome = script[row.id]?.shift()
    if (!outcome) throw new Error(`unplanned send of ${row.id}`)
    return outcome
  }
  return { send, sent }
}

const deps = (
  send: SendSealed,
  withLock: WithLock = outboxLock(`test-${Math.random()}`, null),
): FlushDeps => ({
  store,
  send,
  now: () => clock,
  withLock,
})

test('the store keeps the sealed row and its bookkeeping, nothing else; the same id replaces it', async () => {
  await store.enqueue({ ...ADA, name: 'Ada' } as SealedRow, T0)
  await store.enqueue(ADA, T0 + 5)

  expect(await rawRecords()).toStrictEqual([
    {
      v: 1,
      ...ADA,
      queued_at: new Date(T0 + 5).toISOString(),
      attempts: 0,
      next_attempt_at: T0 + 5,
      state: 'pending',
      last_error: null,
    },
  ])
})

test('the store lists oldest first, counts by state, and never brings back a removed record', async () => {
  await store.enqueue(ADA, T0 + 1_000)
  await store.enqueue(BOB, T0)
  expect(await store.mark(BOB.id, { state: 'needs-attention' })).toBe(true)

  expect((await store.list()).map((record) => record.id)).toStrictEqual([BOB.id, ADA.id])
  expect(await store.counts()).toStrictEqual({ pending: 1, needsAttention: 1 })

  await store.remove(ADA.id)
  expect(await store.mark(ADA.id, { attempts: 3 })).toBe(false)
  store.close()
  store = await openOutboxStore(factory)
  expect((await store.list()).map((record) => record.id)).toStrictEqual([BOB.id])
})

test('retries wait 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s at most', () => {
  expect([0, 1, 2, 3, 4, 5, 6, 60].map(retryDelay)).toStrictEqual([
    1_000, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
  ])
})

test('a retry count that is not a whole number never makes a timer fire at once', () => {
  expect([-1, NaN, Infinity, 2.5].map(retryDelay)).toStrictEqual([1_000, 1_000, 1_000, 2_000])
})

test('a delivered row leaves at once; an answer lost after the insert is replayed and counts as delivered (409)', async () => {
  await store.enqueue(ADA, T0)
  await store.enqueue(BOB, T0 + 1)
  // The backend stores Ada's row but the answer is lost; the replay hits the same id.
  const rows = new Set<string>()
  let answerLost = true
  const send: SendSealed = async (row) => {
    if (rows.has(row.id)) return DELIVERED // what classifyInsertAnswer makes of a 409 on the key
    rows.add(row.id)
    if (row.id === ADA.id && answerLost) return ((answerLost = false), NO_ANSWER)
    return DELIVERED
  }

  const first = await flushOutbox(deps(send))
  clock += retryDelay(1)
  const second = await flushOutbox(deps(send))

  expect(first).toMatchObject({
    delivered: [],
    counts: { pending: 2, needsAttention: 0 },
    nextAttemptAt: T0 + 1_000,
  })
  expect(second.delivered.map((record) => record.id)).toStrictEqual([ADA.id, BOB.id])
  expect(second).toMatchObject({ counts: { pending: 0, needsAttention: 0 }, nextAttemptAt: null })
  expect([...rows]).toStrictEqual([ADA.id, BOB.id])
  expect(await store.list()).toStrictEqual([])
})

test('no answer keeps the row with the backoff and stops the round', async () => {
  await store.enqueue(ADA, T0)
  await store.enqueue(BOB, T0 + 1)
  clock = T0 + 10
  const { send, sent } = scriptedSend({ [ADA.id]: [NO_ANSWER] })

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([ADA.id])
  expect((await store.list())[0]).toMatchObject({
    state: 'pending',
    attempts: 1,
    next_attempt_at: T0 + 10 + 1_000,
    last_error: failureMessages.noAnswer,
  })
  expect(result).toMatchObject({
    counts: { pending: 2, needsAttention: 0 },
    nextAttemptAt: T0 + 10 + 1_000,
  })
})

test('a server error keeps the row with one more attempt and the next backoff, and the round goes on', async () => {
  await store.enqueue(ADA, T0)
  await store.mark(ADA.id, { attempts: 3 })
  await store.enqueue(BOB, T0 + 1)
  clock = T0 + 60_000
  const { send, sent } = scriptedSend({ [ADA.id]: [SERVER_ERROR], [BOB.id]: [DELIVERED] })

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([ADA.id, BOB.id])
  expect(result).toMatchObject({ counts: { pending: 1 }, nextAttemptAt: T0 + 60_000 + 8_000 })
  expect((await store.list())[0]).toMatchObject({
    attempts: 4,
    last_error: failureMessages.serverError,
  })
})

test('a refused row needs attention with a human message, is reported once and never resent on its own', async () => {
  await store.enqueue(ADA, T0)
  const { send, sent } = scriptedSend({ [ADA.id]: [REFUSED] })

  const result = await flushOutbox(deps(send))
  clock += 24 * 60 * 60 * 1_000
  const later = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([ADA.id])
  expect(result.refused).toStrictEqual([
    {
      record: expect.objectContaining({ id: ADA.id }),
      message: failureMessages.staleKey,
      detail: REFUSED.detail,
    },
  ])
  expect(later).toMatchObject({
    refused: [],
    counts: { pending: 0, needsAttention: 1 },
    nextAttemptAt: null,
  })
  expect((await store.list())[0]).toMatchObject({
    state: 'needs-attention',
    last_error: failureMessages.staleKey,
  })
})

test('a stored record that is not a well-formed sealed row (plaintext, another version) is never sent', async () => {
  await putRaw({
    ...ADA,
    v: 2,
    queued_at: '2025-03-01T08:00:00.000Z',
    attempts: 0,
    next_attempt_at: 0,
    state: 'pending',
    last_error: null,
  })
  await putRaw({ id: BOB.id, name: 'Bob', message: 'plaintext', state: 'pending' })
  const { send, sent } = scriptedSend({})

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([])
  expect(result.refused.map((refused) => refused.message)).toStrictEqual([
    failureMessages.damaged,
    failureMessages.damaged,
  ])
  expect(result.counts).toStrictEqual({ pending: 0, needsAttention: 2 })
})

test('rows not yet due wait; `ignoreSchedule` (the connection is back) sends them anyway', async () => {
  await store.enqueue(ADA, T0)
  await store.mark(ADA.id, { attempts: 6, next_attempt_at: T0 + 30_000 })
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })

  const early = await flushOutbox(deps(send))
  const online = await flushOutbox({ ...deps(send), ignoreSchedule: true })

  expect(early).toMatchObject({ delivered: [], nextAttemptAt: T0 + 30_000 })
  expect(online.delivered).toHaveLength(1)
  expect(sent).toStrictEqual([ADA.id])
})

test('two flushes at once, or one while another tab holds the Web Lock, send each row once', async () => {
  await store.enqueue(ADA, T0)
  let release = () => {}
  const answered = new Promise<void>((resolve) => (release = resolve))
  const sent: string[] = []
  const send: SendSealed = async (row) => {
    sent.push(row.id)
    await answered
    return DELIVERED
  }
  const lock = outboxLock('same-page', null)

  const first = flushOutbox(deps(send, lock))
  const second = await flushOutbox(deps(send, lock))
  release()
  expect(second).toMatchObject({ skipped: true, counts: { pending: 1, needsAttention: 0 } })
  expect((await first).delivered).toHaveLength(1)
  expect(sent).toStrictEqual([ADA.id])

  await store.enqueue(BOB, T0)
  const locks = fakeLockManager()
  let otherTabDone = () => {}
  const otherTab = outboxLock(
    'tabs',
    locks,
  )(() => new Promise<void>((resolve) => (otherTabDone = resolve)))
  const blocked = await flushOutbox(deps(send, outboxLock('tabs', locks)))
  otherTabDone()
  await otherTab
  expect(blocked).toMatchObject({ skipped: true, delivered: [] })
  expect(sent).toStrictEqual([ADA.id])
})

test('a send that throws is treated like no answer', async () => {
  await store.enqueue(ADA, T0)
  const send: SendSealed = async () => {
    throw new TypeError('NetworkError when attempting to fetch resource.')
  }

  const result = await flushOutbox(deps(send))

  expect(result).toMatchObject({ counts: { pending: 1 }, nextAttemptAt: T0 + 1_000 })
  expect((await store.list())[0]).toMatchObject({
    attempts: 1,
    last_error: failureMessages.noAnswer,
  })
})

test('a row the visitor discards while it is being sent is not reported as refused', async () => {
  await store.enqueue(ADA, T0)
  const send: SendSealed = async (row) => {
    await store.remove(row.id)
    return REFUSED
  }

  const result = await flushOutbox(deps(send))

  expect(result).toMatchObject({ refused: [], counts: { pending: 0, needsAttention: 0 } })
  expect(await rawRecords()).toStrictEqual([])
})

/** The part of the Web Locks API `outboxLock` uses: exclusive locks with `ifAvailable`. */
function fakeLockManager(): LockManager {
  const held = new Set<string>()
  const manager = {
    async request(name: string, _options: LockOptions, callback: (lock: Lock | null) => unknown) {
      if (held.has(name)) return callback(null)
      held.add(name)
      try {
        return await callback({ name, mode: 'exclusive' })
      } finally {
        held.delete(name)
      }
    },
  }
  return manager as unknown as LockManager
}
