// The outbox's store and its flush, on fake-indexeddb: the everyday round (delivered, no answer,
// server error, refused, the lock), when the next round is due, and what a round does with records
// it cannot trust.
// idb recognises requests by the global IDB classes, so they must exist even with a factory per test.
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { failureMessages } from '../contact/contact-copy'
import { threadFailureMessages } from '../replies/thread-copy'
import { flushOutbox, type FlushDeps } from './outbox-flush'
import type { QueuedInquiryRow, SendQueued } from './outbox-types'
import { outboxLock } from './outbox-lock'
import { retryDelay } from './outbox-definitions'
import { openOutboxStore, type OutboxStore } from './outbox-store'
import {
  ADA,
  BOB,
  CY,
  DELIVERED,
  fakeArmor,
  inquiryItem,
  itemId,
  NO_ANSWER,
  rawOutbox,
  REFUSED,
  scriptedSend,
  SERVER_ERROR,
  T0,
} from '../contact/contact-test-fixtures'

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

const rawRecords = () => rawOutbox(factory).records()
const putRaw = (value: unknown) => rawOutbox(factory).put(value)

const deps = (send: SendQueued, over: Partial<FlushDeps> = {}): FlushDeps => ({
  store,
  send,
  now: () => clock,
  withLock: outboxLock(`test-${Math.random()}`, null),
  ...over,
})

test('the store keeps the sealed row and its bookkeeping, nothing else; the same id replaces it', async () => {
  await store.enqueue(inquiryItem({ ...ADA, name: 'Ada' } as QueuedInquiryRow), T0)
  await store.enqueue(inquiryItem(ADA), T0 + 5)

  expect(await rawRecords()).toStrictEqual([
    {
      v: 1,
      kind: 'inquiry',
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
  await store.enqueue(inquiryItem(ADA), T0 + 1_000)
  await store.enqueue(inquiryItem(BOB), T0)
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
  await store.enqueue(inquiryItem(ADA), T0)
  await store.enqueue(inquiryItem(BOB), T0 + 1)
  // The backend stores Ada's row but the answer is lost; the replay hits the same id.
  const rows = new Set<string>()
  let answerLost = true
  const send: SendQueued = async (item) => {
    const row = { id: itemId(item) }
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
  await store.enqueue(inquiryItem(ADA), T0)
  await store.enqueue(inquiryItem(BOB), T0 + 1)
  clock = T0 + 10
  const { send, sentIds } = scriptedSend({ [ADA.id]: [NO_ANSWER] })

  const result = await flushOutbox(deps(send))

  expect(sentIds()).toStrictEqual([ADA.id])
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

test('a busy server (a statement timeout) keeps the row, says so, and sends it on the next round', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  clock = T0 + 10
  const { send, sentIds } = scriptedSend({
    [ADA.id]: [
      { kind: 'no-answer', reason: 'busy', detail: 'HTTP 500 57014: canceling statement' },
      DELIVERED,
    ],
  })

  const first = await flushOutbox(deps(send))
  expect(first).toMatchObject({ refused: [], counts: { pending: 1, needsAttention: 0 } })
  expect((await store.list())[0]).toMatchObject({
    state: 'pending',
    attempts: 1,
    last_error: failureMessages.busy,
  })
  expect(failureMessages.busy).toMatch(/busy/)

  clock = first.nextAttemptAt!
  const second = await flushOutbox(deps(send))
  expect(sentIds()).toStrictEqual([ADA.id, ADA.id])
  expect(second.delivered.map((record) => record.id)).toStrictEqual([ADA.id])
  expect(await store.list()).toStrictEqual([])
})

test('a server error keeps the row with one more attempt and the next backoff, and the round goes on', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  await store.mark(ADA.id, { attempts: 3 })
  await store.enqueue(inquiryItem(BOB), T0 + 1)
  clock = T0 + 60_000
  const { send, sentIds } = scriptedSend({ [ADA.id]: [SERVER_ERROR], [BOB.id]: [DELIVERED] })

  const result = await flushOutbox(deps(send))

  expect(sentIds()).toStrictEqual([ADA.id, BOB.id])
  expect(result).toMatchObject({ counts: { pending: 1 }, nextAttemptAt: T0 + 60_000 + 8_000 })
  expect((await store.list())[0]).toMatchObject({
    attempts: 4,
    last_error: failureMessages.serverError,
  })
})

test('a refused row needs attention with a human message, is reported once and never resent on its own', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  const { send, sentIds } = scriptedSend({ [ADA.id]: [REFUSED] })

  const result = await flushOutbox(deps(send))
  clock += 24 * 60 * 60 * 1_000
  const later = await flushOutbox(deps(send))

  expect(sentIds()).toStrictEqual([ADA.id])
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
    v: 9,
    kind: 'inquiry',
    queued_at: '2025-03-01T08:00:00.000Z',
    attempts: 0,
    next_attempt_at: 0,
    state: 'pending',
    last_error: null,
  })
  await putRaw({ id: BOB.id, name: 'Bob', message: 'plaintext', state: 'pending' })
  const { send, sentIds } = scriptedSend({})

  const result = await flushOutbox(deps(send))

  expect(sentIds()).toStrictEqual([])
  expect(result.refused.map((refused) => refused.message)).toStrictEqual([
    failureMessages.damaged,
    failureMessages.damaged,
  ])
  expect(result.counts).toStrictEqual({ pending: 0, needsAttention: 2 })
})

test('rows not yet due wait; `ignoreSchedule` (the connection is back) sends them anyway', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  await store.mark(ADA.id, { attempts: 6, next_attempt_at: T0 + 30_000 })
  const { send, sentIds } = scriptedSend({ [ADA.id]: [DELIVERED] })

  const early = await flushOutbox(deps(send))
  const online = await flushOutbox({ ...deps(send), ignoreSchedule: true })

  expect(early).toMatchObject({ delivered: [], nextAttemptAt: T0 + 30_000 })
  expect(online.delivered).toHaveLength(1)
  expect(sentIds()).toStrictEqual([ADA.id])
})

test('two flushes at once, or one while another tab holds the Web Lock, send each row once', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  let release = () => {}
  const answered = new Promise<void>((resolve) => (release = resolve))
  const sent: string[] = []
  const send: SendQueued = async (item) => {
    const row = { id: itemId(item) }
    sent.push(row.id)
    await answered
    return DELIVERED
  }
  const lock = outboxLock('same-page', null)

  const first = flushOutbox(deps(send, { withLock: lock }))
  const second = await flushOutbox(deps(send, { withLock: lock }))
  release()
  expect(second).toMatchObject({ skipped: true, counts: { pending: 1, needsAttention: 0 } })
  expect((await first).delivered).toHaveLength(1)
  expect(sent).toStrictEqual([ADA.id])

  await store.enqueue(inquiryItem(BOB), T0)
  const locks = fakeLockManager()
  let otherTabDone = () => {}
  const otherTab = outboxLock(
    'tabs',
    locks,
  )(() => new Promise<void>((resolve) => (otherTabDone = resolve)))
  const blocked = await flushOutbox(deps(send, { withLock: outboxLock('tabs', locks) }))
  otherTabDone()
  await otherTab
  expect(blocked).toMatchObject({ skipped: true, delivered: [] })
  expect(sent).toStrictEqual([ADA.id])
})

test('a send that throws is treated like no answer', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  const send: SendQueued = async () => {
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
  await store.enqueue(inquiryItem(ADA), T0)
  const send: SendQueued = async (item) => {
    const row = { id: itemId(item) }
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

// When the next round is due, and what a round does with records it cannot trust.

test('the next round is due when the earliest waiting record is, not the latest', async () => {
  // Ada has failed often (long backoff), Bob once (short backoff): both fail again this round.
  await store.enqueue(inquiryItem(ADA), T0)
  await store.mark(ADA.id, { attempts: 3 })
  await store.enqueue(inquiryItem(BOB), T0 + 1)
  clock = T0 + 10
  const { send } = scriptedSend({ [ADA.id]: [SERVER_ERROR], [BOB.id]: [SERVER_ERROR] })

  const result = await flushOutbox(deps(send))

  // Ada waits 8 s (4th failure), Bob 1 s (1st): the timer must fire for Bob.
  expect(result.nextAttemptAt).toBe(T0 + 10 + 1_000)
  expect(result.counts).toStrictEqual({ pending: 2, needsAttention: 0 })
})

test('a record still backing off sets the next round even when nothing was sent', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  await store.mark(ADA.id, { attempts: 2, next_attempt_at: T0 + 20_000 })
  await store.enqueue(inquiryItem(BOB), T0)
  await store.mark(BOB.id, { attempts: 1, next_attempt_at: T0 + 5_000 })
  const { send, sent } = scriptedSend({})

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([])
  expect(result.nextAttemptAt).toBe(T0 + 5_000)
})

test('sends the row exactly as it will be inserted: id, key_id and ciphertext, no bookkeeping', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })

  await flushOutbox(deps(send))

  expect(sent).toStrictEqual([inquiryItem(ADA)])
})

test('a damaged record among good ones: the good ones still go, the damaged one waits for the visitor', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  await putRaw({
    id: 'not-a-uuid',
    state: 'pending',
    queued_at: '2025-03-01T08:59:00.000Z',
    sealed: 'Hello, plain text',
  })
  await store.enqueue(inquiryItem(BOB), T0 + 1)
  clock = T0 + 10
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED], [BOB.id]: [DELIVERED] })

  const result = await flushOutbox(deps(send))

  expect(sent.map(itemId)).toStrictEqual([ADA.id, BOB.id])
  expect(result.delivered.map((record) => record.id)).toStrictEqual([ADA.id, BOB.id])
  expect(result.counts).toStrictEqual({ pending: 0, needsAttention: 1 })
  expect(result.nextAttemptAt).toBeNull()
  expect(result.refused).toHaveLength(1)
  const [damaged] = result.refused
  expect(damaged?.message).toBe(failureMessages.damaged)
  // The console learns which fields failed, never what they hold.
  expect(damaged?.detail).toMatch(/\bid\b/)
  expect(damaged?.detail).toMatch(/\bsealed\b/)
  expect(damaged?.detail).not.toContain('Hello, plain text')
  expect(await store.list()).toStrictEqual([
    expect.objectContaining({
      id: 'not-a-uuid',
      state: 'needs-attention',
      last_error: failureMessages.damaged,
    }),
  ])
})

test('a record with no state, or one this version does not know, is damaged: marked, and counted alike everywhere', async () => {
  await putRaw({ ...ADA, queued_at: '2025-03-01T08:59:00.000Z', attempts: 0, next_attempt_at: T0 })
  await putRaw({
    ...BOB,
    queued_at: '2025-03-01T08:59:30.000Z',
    state: 'sending',
    attempts: 0,
    next_attempt_at: T0,
  })
  clock = T0 + 10
  const { send, sent } = scriptedSend({})

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([])
  expect(result.refused.map(({ record, message }) => [record.id, message])).toStrictEqual([
    [ADA.id, failureMessages.damaged],
    [BOB.id, failureMessages.damaged],
  ])
  expect(result.counts).toStrictEqual({ pending: 0, needsAttention: 2 })
  expect(await store.counts()).toStrictEqual(result.counts)
  expect((await store.list()).map((record) => record.state)).toStrictEqual([
    'needs-attention',
    'needs-attention',
  ])
})

test('a damaged record discarded by the visitor during the round is not reported', async () => {
  await putRaw({ id: 'not-a-uuid', state: 'pending', queued_at: '2025-03-01T08:59:00.000Z' })
  // The visitor discards it between the round's read and its mark.
  const racing: OutboxStore = {
    ...store,
    list: async () => {
      const records = await store.list()
      await store.remove('not-a-uuid')
      racing.list = () => store.list()
      return records
    },
  }

  const result = await flushOutbox(deps(scriptedSend({}).send, { store: racing }))

  expect(result).toMatchObject({ refused: [], counts: { pending: 0, needsAttention: 0 } })
})

test('a round sends oldest first and tries every due record after a server error', async () => {
  await store.enqueue(inquiryItem(CY), T0 + 2)
  await store.enqueue(inquiryItem(ADA), T0)
  await store.enqueue(inquiryItem(BOB), T0 + 1)
  clock = T0 + 10
  const { send, sent } = scriptedSend({
    [ADA.id]: [SERVER_ERROR],
    [BOB.id]: [SERVER_ERROR],
    [CY.id]: [DELIVERED],
  })

  const result = await flushOutbox(deps(send))

  expect(sent.map(itemId)).toStrictEqual([ADA.id, BOB.id, CY.id])
  expect(result.delivered.map((record) => record.id)).toStrictEqual([CY.id])
  expect(result.refused).toStrictEqual([])
})

test('a skipped round (someone else holds the lock) reports the counts it finds and sends nothing', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  const { send, sent } = scriptedSend({})

  const result = await flushOutbox(deps(send, { withLock: async () => undefined }))

  expect(sent).toStrictEqual([])
  expect(result).toStrictEqual({
    delivered: [],
    refused: [],
    counts: { pending: 1, needsAttention: 0 },
    nextAttemptAt: null,
    skipped: true,
  })
})

/** A stored record as the store writes it, for the checks below. */
const storedRecord = (row: QueuedInquiryRow) => ({
  v: 1,
  kind: 'inquiry',
  ...row,
  queued_at: '2025-03-01T08:00:00.000Z',
  attempts: 0,
  next_attempt_at: T0,
  state: 'pending',
  last_error: null,
})

test.each([
  ['a key_id one character too long', { key_id: '0123456789abcdef0' }],
  ['a key_id with something before it', { key_id: 'x0123456789abcdef' }],
  ['text before the armor', { sealed: `Dear team,\n${fakeArmor('YWRh')}` }],
  ['text after the armor', { sealed: `${fakeArmor('YWRh')}Sent from my phone` }],
  ['no mailbox hash', { mailbox_hash: undefined }],
])('a stored record with %s is never sent', async (_name, damage) => {
  await putRaw({ ...storedRecord(ADA), ...damage })
  const { send, sent } = scriptedSend({})

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([])
  expect(result.counts).toStrictEqual({ pending: 0, needsAttention: 1 })
})

test.each([
  [
    'an armor of several lines, as age writes a long brief',
    fakeArmor(`${'A'.repeat(64)}\n${'B'.repeat(64)}\nCCCC`),
  ],
  ['an armor without its final newline (the database accepts it too)', fakeArmor('YWRh').trimEnd()],
])('a stored record with %s is sent as it is', async (_name, sealed) => {
  await putRaw(storedRecord({ ...ADA, sealed }))
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([inquiryItem({ ...ADA, sealed })])
  expect(result).toMatchObject({ skipped: false, counts: { pending: 0, needsAttention: 0 } })
})

test('records of both kinds flush: an inquiry with its mailbox hash, and a thread message with its token', async () => {
  const hash = `\\x${'cd'.repeat(32)}`
  const token = 'cd'.repeat(32)
  const message = {
    id: '4f0a1b2c-3d4e-4f50-8a6b-7c8d9e0f1a2b',
    mailbox_token: token,
    sealed: fakeArmor('bXNn'),
  }
  await store.enqueue(inquiryItem({ ...BOB, mailbox_hash: hash }), T0 + 1)
  await store.enqueue({ kind: 'message', message }, T0 + 2)
  expect(await rawRecords()).toMatchObject([
    { v: 1, kind: 'inquiry', id: BOB.id, mailbox_hash: hash },
    { v: 1, kind: 'message', id: message.id, mailbox_token: token },
  ])

  const { send, sent } = scriptedSend({
    [BOB.id]: [DELIVERED],
    [message.id]: [DELIVERED],
  })
  clock = T0 + 10
  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([
    inquiryItem({ ...BOB, mailbox_hash: hash }),
    { kind: 'message', message },
  ])
  expect(result.delivered).toHaveLength(2)
  // Delivered: the token leaves the device with the message.
  expect(await rawRecords()).toStrictEqual([])
})

test('a thread message refused as closed waits for the visitor with its sentence; a damaged token is never sent', async () => {
  const message = {
    id: '5a1b2c3d-4e5f-4061-8b7c-8d9e0f1a2b3c',
    mailbox_token: 'ef'.repeat(32),
    sealed: fakeArmor('bXNn'),
  }
  await store.enqueue({ kind: 'message', message }, T0)
  await putRaw({
    v: 1,
    kind: 'message',
    id: CY.id,
    mailbox_token: 'not a token',
    sealed: fakeArmor('Y3k'),
    queued_at: new Date(T0).toISOString(),
    attempts: 0,
    next_attempt_at: T0,
    state: 'pending',
    last_error: null,
  })
  const { send, sentIds } = scriptedSend({
    [message.id]: [{ kind: 'refused', reason: 'threadClosed', detail: 'HTTP 409 thread_closed' }],
  })
  const result = await flushOutbox(deps(send))
  expect(sentIds()).toStrictEqual([message.id])
  expect(result.refused.map(({ message: sentence }) => sentence).sort()).toStrictEqual(
    [failureMessages.damaged, threadFailureMessages.threadClosed].sort(),
  )
  expect(result.counts).toStrictEqual({ pending: 0, needsAttention: 2 })
})
