// The one-time move of the plaintext outbox (legacy-outbox.ts) where the old data is thin: no
// store, no records, missing fields. The common path is covered in legacy-outbox.test.ts.
import 'fake-indexeddb/auto'
import { deleteDB, openDB } from 'idb'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { siteEnv } from '../../../lib/env'
import type { SubmissionDocument } from '../sealing/seal-submission'
import { migrateLegacyOutbox } from './legacy-outbox'

const sealer = vi.hoisted(() => ({
  loads: 0,
  seal: async (document: { id: string }, _recipients: readonly string[]) => ({
    id: document.id,
    key_id: '0123456789abcdef',
    sealed: `sealed:${document.id}`,
  }),
}))
vi.mock('../sealing/load-sealer', () => ({
  loadSealer: async () => {
    sealer.loads += 1
    return { sealSubmission: sealSubmission }
  },
}))
const sealSubmission = vi.fn((document: SubmissionDocument, recipients: readonly string[]) =>
  sealer.seal(document, recipients),
)

const LEGACY_DB = 'contact-outbox'
const databaseNames = async () => (await indexedDB.databases()).map((database) => database.name)

beforeEach(() => {
  sealer.loads = 0
  sealSubmission.mockClear()
})
afterEach(async () => {
  vi.useRealTimers()
  await deleteDB(LEGACY_DB)
})

test('an old database without its store is removed without loading the crypto code', async () => {
  ;(await openDB(LEGACY_DB, 1)).close()
  const enqueue = vi.fn(async () => {})

  await migrateLegacyOutbox(enqueue)

  expect(sealer.loads).toBe(0)
  expect(enqueue).not.toHaveBeenCalled()
  expect(await databaseNames()).not.toContain(LEGACY_DB)
})

test('an old outbox with nothing left in it is removed without loading the crypto code', async () => {
  const db = await openDB(LEGACY_DB, 1, {
    upgrade: (database) => database.createObjectStore('submissions', { keyPath: 'submission.id' }),
  })
  db.close()

  await migrateLegacyOutbox(vi.fn(async () => {}))

  expect(sealer.loads).toBe(0)
  expect(await databaseNames()).not.toContain(LEGACY_DB)
})

test('a record missing its user agent and queue time is sealed with an empty user agent and the time of the move', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.parse('2026-11-22T17:00:00.000Z'))
  const db = await openDB(LEGACY_DB, 1, {
    upgrade: (database) => database.createObjectStore('submissions', { keyPath: 'submission.id' }),
  })
  const id = '0b6f1a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b'
  await db.put('submissions', {
    version: 1,
    submission: {
      id,
      name: 'Ada',
      contact: '@ada_l',
      project_type: null,
      budget: null,
      message: 'Old brief.',
    },
    queuedAt: 'not a date',
    state: 'pending',
  })
  db.close()
  const enqueue = vi.fn(async () => {})

  await migrateLegacyOutbox(enqueue)

  expect(sealSubmission.mock.calls[0]?.[0]).toMatchObject({
    id,
    user_agent: '',
    submitted_at: '2026-11-22T17:00:00.000Z',
  })
  expect(enqueue).toHaveBeenCalledWith(expect.objectContaining({ id }), {
    queued_at: '2026-11-22T17:00:00.000Z',
    state: 'pending',
  })
})

test('seals to the recipients the site was built with, and to nobody else', async () => {
  const db = await openDB(LEGACY_DB, 1, {
    upgrade: (database) => database.createObjectStore('submissions', { keyPath: 'submission.id' }),
  })
  const id = '1c7a2b63-4d5e-4f60-9b0c-1d2e3f4a5b6c'
  await db.put('submissions', {
    version: 1,
    submission: {
      id,
      name: 'Bob',
      contact: '@bob',
      project_type: null,
      budget: null,
      message: 'Hi.',
      user_agent: 'Old/1.0',
    },
    queuedAt: '2025-03-01T09:00:00.000Z',
    state: 'pending',
  })
  db.close()

  await migrateLegacyOutbox(vi.fn(async () => {}))

  // Without configured recipients the list is empty, so the real sealer fails closed.
  const configured = siteEnv.submissionKeys?.recipients ?? []
  expect(sealSubmission).toHaveBeenCalledTimes(1)
  for (const recipient of sealSubmission.mock.calls[0]![1]) expect(configured).toContain(recipient)
})
