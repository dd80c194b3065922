// When the next round is due, and what a round does with records it cannot trust. The round's
// everyday behaviour (delivered, no answer, server error, refused, the lock) is in outbox.test.ts.
// idb recognises requests by the global IDB classes, so they must exist even with a factory per test.
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { wrap, type IDBPDatabase } from 'idb'
import { afterEach, beforeEach, expect, test } from 'vitest'
import type { SealedRow } from '../../../shared/database-types'
import { failureMessages } from '../contact-copy'
import type { SendOutcome, SendSealed } from '../send-to-supabase'
import { flushOutbox, type FlushDeps } from './outbox-flush'
import { outboxLock } from './outbox-lock'
import { OUTBOX_DB_NAME } from './outbox-definitions'
import { OUTBOX_STORE, openOutboxStore, type OutboxStore } from './outbox-store'

const T0 = Date.parse('2025-03-01T09:00:00.000Z')
const armor = (body: string) =>
  `-----BEGIN AGE ENCRYPTED FILE-----\n${body}\n-----END AGE ENCRYPTED FILE-----\n`
const ADA: SealedRow = {
  id: '0b6f1a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  key_id: '0123456789abcdef',
  sealed: armor('YWRh'),
}
const BOB: SealedRow = {
  id: '1c7a2b63-4d5e-4f60-9b0c-1d2e3f4a5b6c',
  key_id: '0123456789abcdef',
  sealed: armor('Ym9i'),
}
const CY: SealedRow = {
  id: '2d8b3c74-5e6f-4071-8c1d-2e3f4a5b6c7d',
  key_id: '0123456789abcdef',
  sealed: armor('Y3k'),
}

const DELIVERED: SendOutcome = { kind: 'delivered' }
const SERVER_ERROR: SendOutcome = {
  kind: 'server-error',
  reason: 'serverError',
  detail: 'HTTP 500 XX000: boom',
}

let factory: IDBFactory
let store: OutboxStore
let clock: number

beforeEach(async () => {
  factory = new IDBFactory()
  store = await openOutboxStore(factory)
  clock = T0
})
afterEach(() => store.close())

const deps = (send: SendSealed, over: Partial<FlushDeps> = {}): FlushDeps => ({
  store,
  send,
  now: () => clock,
  withLock: outboxLock(`flush-test-${Math.random()}`, null),
  ...over,
})

/** A send function answering from a script (one outcome per call, per id) that records its calls. */
function scriptedSend(script: Record<string, SendOutcome[]>) {
  const sent: SealedRow[] = []
  const send: SendSealed = async (row) => {
    sent.push(row)
    const outcome = script[row.id]?.shift()
    if (!outcome) throw new Error(`unplanned send of ${row.id}`)
    return outcome
  }
  return { send, sent }
}

async function putRaw(value: unknown): Promise<void> {
  const db = (await wrap(factory.open(OUTBOX_DB_NAME))) as IDBPDatabase
  await db.put(OUTBOX_STORE, value)
  db.close()
}

test('the next round is due when the earliest waiting record is, not the latest', async () => {
  // Ada has failed often (long backoff), Bob once (short backoff): both fail again this round.
  await store.enqueue(ADA, T0)
  await store.mark(ADA.id, { attempts: 3 })
  await store.enqueue(BOB, T0 + 1)
  clock = T0 + 10
  const { send } = scriptedSend({ [ADA.id]: [SERVER_ERROR], [BOB.id]: [SERVER_ERROR] })

  const result = await flushOutbox(deps(send))

  // Ada waits 8 s (4th failure), Bob 1 s (1st): the timer must fire for Bob.
  expect(result.nextAttemptAt).toBe(T0 + 10 + 1_000)
  expect(result.counts).toStrictEqual({ pending: 2, needsAttention: 0 })
})

test('a record still backing off sets the next round even when nothing was sent', async () => {
  await store.enqueue(ADA, T0)
  await store.mark(ADA.id, { attempts: 2, next_attempt_at: T0 + 20_000 })
  await store.enqueue(BOB, T0)
  await store.mark(BOB.id, { attempts: 1, next_attempt_at: T0 + 5_000 })
  const { send, sent } = scriptedSend({})

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([])
  expect(result.nextAttemptAt).toBe(T0 + 5_000)
})

test('sends the row exactly as it will be inserted: id, key_id and ciphertext, no bookkeeping', async () => {
  await store.enqueue(ADA, T0)
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })

  await flushOutbox(deps(send))

  expect(sent).toStrictEqual([ADA])
})

test('a damaged record among good ones: the good ones still go, the damaged one waits for the visitor', async () => {
  await store.enqueue(ADA, T0)
  await putRaw({
    id: 'not-a-uuid',
    state: 'pending',
    queued_at: '2025-03-01T08:59:00.000Z',
    sealed: 'Hello, plain text',
  })
  await store.enqueue(BOB, T0 + 1)
  clock = T0 + 10
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED], [BOB.id]: [DELIVERED] })

  const result = await flushOutbox(deps(send))

  expect(sent.map((row) => row.id)).toStrictEqual([ADA.id, BOB.id])
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
  await store.enqueue(CY, T0 + 2)
  await store.enqueue(ADA, T0)
  await store.enqueue(BOB, T0 + 1)
  clock = T0 + 10
  const { send, sent } = scriptedSend({
    [ADA.id]: [SERVER_ERROR],
    [BOB.id]: [SERVER_ERROR],
    [CY.id]: [DELIVERED],
  })

  const result = await flushOutbox(deps(send))

  expect(sent.map((row) => row.id)).toStrictEqual([ADA.id, BOB.id, CY.id])
  expect(result.delivered.map((record) => record.id)).toStrictEqual([CY.id])
  expect(result.refused).toStrictEqual([])
})

test('a skipped round (someone else holds the lock) reports the counts it finds and sends nothing', async () => {
  await store.enqueue(ADA, T0)
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
const storedRecord = (row: SealedRow) => ({
  v: 1,
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
  ['text before the armor', { sealed: `Dear team,\n${armor('YWRh')}` }],
  ['text after the armor', { sealed: `${armor('YWRh')}Sent from my phone` }],
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
    armor(`${'A'.repeat(64)}\n${'B'.repeat(64)}\nCCCC`),
  ],
  ['an armor without its final newline (the database accepts it too)', armor('YWRh').trimEnd()],
])('a stored record with %s is sent as it is', async (_name, sealed) => {
  await putRaw(storedRecord({ ...ADA, sealed }))
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })

  const result = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([{ ...ADA, sealed }])
  expect(result).toMatchObject({ skipped: false, counts: { pending: 0, needsAttention: 0 } })
})
