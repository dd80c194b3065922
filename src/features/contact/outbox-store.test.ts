// idb recognises requests by the global IDB classes, so they must exist even with a factory per test.
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { ZodError } from 'zod'
import {
  UNREADABLE_RECORD_MESSAGE,
  openOutbox,
  readRecord,
  type Outbox,
  type OutboxRecord,
} from './outbox-store'
import { ADA, BOB, T0, getAllRaw, putRaw } from './outbox-test-fixtures'

// Each test gets its own in-memory IndexedDB, dropped with it.
let factory: IDBFactory
let outbox: Outbox

beforeEach(async () => {
  factory = new IDBFactory()
  outbox = await openOutbox(factory)
})

afterEach(() => {
  outbox.close()
})

test('enqueue stores exactly the submission and its bookkeeping', async () => {
  await outbox.enqueue(ADA, T0)

  expect(await getAllRaw(factory)).toStrictEqual([
    {
      version: 1,
      submission: ADA,
      queuedAt: '2025-03-01T09:00:00.000Z',
      attempts: 0,
      nextAttemptAt: T0,
      state: 'pending',
      lastError: null,
    },
  ])
})

test('enqueue refuses a submission that would not pass the schema, and stores nothing', async () => {
  await expect(outbox.enqueue({ ...ADA, message: '   ' }, T0)).rejects.toBeInstanceOf(ZodError)

  expect(await getAllRaw(factory)).toStrictEqual([])
})

test('queuing the same id again replaces the record instead of adding a second one', async () => {
  await outbox.enqueue(ADA, T0)
  await outbox.enqueue({ ...ADA, message: 'Corrected brief.' }, T0 + 5_000)

  const records = await outbox.list()
  expect(records).toHaveLength(1)
  expect(records[0]?.submission.message).toBe('Corrected brief.')
  expect(await outbox.count()).toStrictEqual({ pending: 1, needsAttention: 0 })
})

test('list returns records oldest first', async () => {
  // Ada's id sorts first as a key, but Bob queued earlier.
  await outbox.enqueue(ADA, T0 + 1_000)
  await outbox.enqueue(BOB, T0)

  expect((await outbox.list()).map((record) => record.submission.name)).toStrictEqual([
    'Bob',
    'Ada Example',
  ])
})

test('get returns the record by id, and undefined once removed', async () => {
  const queued = await outbox.enqueue(ADA, T0)

  expect(await outbox.get(ADA.id)).toStrictEqual(queued)
  await outbox.remove(ADA.id)
  expect(await outbox.get(ADA.id)).toBeUndefined()
  expect(await getAllRaw(factory)).toStrictEqual([])
})

test('update replaces a stored record but never brings back a removed one', async () => {
  const queued = await outbox.enqueue(ADA, T0)
  const retried: OutboxRecord = { ...queued, attempts: 1, nextAttemptAt: T0 + 1_000 }

  expect(await outbox.update(retried)).toBe(true)
  expect(await outbox.get(ADA.id)).toStrictEqual(retried)

  await outbox.remove(ADA.id)
  expect(await outbox.update(retried)).toBe(false)
  expect(await outbox.get(ADA.id)).toBeUndefined()
})

test('count tells pending records from those needing attention', async () => {
  await outbox.enqueue(ADA, T0)
  const bob = await outbox.enqueue(BOB, T0)
  await outbox.update({ ...bob, state: 'needs-attention', lastError: 'Invalid contact.' })

  expect(await outbox.count()).toStrictEqual({ pending: 1, needsAttention: 1 })
})

test('queued records survive closing and reopening the database', async () => {
  await outbox.enqueue(ADA, T0)
  outbox.close()

  outbox = await openOutbox(factory)

  expect((await outbox.list()).map((record) => record.submission)).toStrictEqual([ADA])
})

test('readRecord returns a version-1 record as it is', () => {
  const record: OutboxRecord = {
    version: 1,
    submission: BOB,
    queuedAt: '2025-03-01T09:00:00.000Z',
    attempts: 2,
    nextAttemptAt: T0 + 2_000,
    state: 'pending',
    lastError: 'Failed to fetch',
  }

  expect(readRecord(record)).toStrictEqual(record)
})

test('a record from an older version is flagged for attention with its fields recovered', async () => {
  // An unversioned record, with a project type this version no longer offers.
  await putRaw(factory, {
    submission: { ...ADA, project_type: 'nft-drop' },
    queuedAt: '2025-02-27T18:30:00.000Z',
    attempts: 4,
  })

  expect(await outbox.list()).toStrictEqual([
    {
      version: 1,
      submission: { ...ADA, project_type: 'nft-drop' },
      queuedAt: '2025-02-27T18:30:00.000Z',
      attempts: 4,
      nextAttemptAt: 0,
      state: 'needs-attention',
      lastError: UNREADABLE_RECORD_MESSAGE,
    },
  ])
  expect(await outbox.count()).toStrictEqual({ pending: 0, needsAttention: 1 })
})

test('reading a record of another version leaves the stored value untouched', async () => {
  const newer = {
    version: 2,
    submission: { id: ADA.id, ciphertext: '-----BEGIN PGP MESSAGE-----' },
  }
  await putRaw(factory, newer)

  await outbox.list()
  await outbox.count()

  expect(await getAllRaw(factory)).toStrictEqual([newer])
})

test('readRecord keeps damaged fields as text instead of dropping them', () => {
  const record = readRecord({
    version: 1,
    submission: {
      id: ADA.id,
      name: 42,
      contact: ['ada@example.com'],
      message: 'Hello',
      budget: '',
    },
    queuedAt: 'yesterday',
    attempts: -1,
    nextAttemptAt: 'soon',
    state: 'sent',
    lastError: null,
  })

  expect(record).toStrictEqual({
    version: 1,
    submission: {
      id: ADA.id,
      name: '42',
      contact: '["ada@example.com"]',
      project_type: null,
      budget: null,
      message: 'Hello',
      user_agent: '',
    },
    queuedAt: '1970-01-01T00:00:00.000Z',
    attempts: 0,
    nextAttemptAt: 0,
    state: 'needs-attention',
    lastError: UNREADABLE_RECORD_MESSAGE,
  })
})

test('readRecord recovers a bare submission stored without a record around it', () => {
  expect(readRecord({ ...BOB }).submission).toStrictEqual(BOB)
  expect(readRecord({ ...BOB }).state).toBe('needs-attention')
})
