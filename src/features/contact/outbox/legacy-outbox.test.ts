import 'fake-indexeddb/auto'
import { deleteDB, openDB } from 'idb'
import { afterEach, expect, test, vi } from 'vitest'
import type { SubmissionDocument } from '../sealing/seal-submission'
import { migrateLegacyOutbox } from './legacy-outbox'

const sealSubmission = vi.fn(async (document: SubmissionDocument) => ({
  id: document.id,
  key_id: '0123456789abcdef',
  sealed: `sealed:${document.id}`,
}))
vi.mock('../sealing/load-sealer', () => ({ loadSealer: async () => ({ sealSubmission }) }))

const ADA = {
  id: '0b6f1a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  name: 'Ada',
  contact: 'ada@example.com',
  project_type: 'other',
  budget: null,
  message: 'Queued before sealing.',
  user_agent: 'Old/1.0',
}

/** The plaintext outbox exactly as the release before sealing wrote it. */
async function plantLegacy(records: unknown[]) {
  const db = await openDB('contact-outbox', 1, {
    upgrade: (database) => database.createObjectStore('submissions', { keyPath: 'submission.id' }),
  })
  for (const record of records) await db.put('submissions', record)
  db.close()
}

const databaseNames = async () => (await indexedDB.databases()).map((database) => database.name)

afterEach(async () => {
  await deleteDB('contact-outbox')
  sealSubmission.mockClear()
})

test('plaintext records of the previous release are sealed, queued under their own id, then deleted', async () => {
  await plantLegacy([
    {
      version: 1,
      submission: ADA,
      queuedAt: '2025-03-01T09:00:00.000Z',
      attempts: 2,
      nextAttemptAt: 0,
      state: 'pending',
      lastError: null,
    },
    {
      version: 1,
      submission: { ...ADA, id: '1c7a2b63-4d5e-4f60-9b0c-1d2e3f4a5b6c' },
      queuedAt: '2025-03-01T10:00:00.000Z',
      state: 'needs-attention',
    },
    {
      version: 1,
      submission: { ...ADA, id: '2d8b3c74-5e6f-4071-8c1d-2e3f4a5b6c7d', message: '   ' },
      queuedAt: '2025-03-01T11:00:00.000Z',
      state: 'pending',
    },
  ])
  const enqueue = vi.fn(async () => {})

  await migrateLegacyOutbox(enqueue)

  expect(sealSubmission.mock.calls[0]?.[0]).toEqual({
    ...ADA,
    submitted_at: '2025-03-01T09:00:00.000Z',
  })
  expect(enqueue.mock.calls).toEqual([
    [
      { id: ADA.id, key_id: '0123456789abcdef', sealed: `sealed:${ADA.id}` },
      { queued_at: '2025-03-01T09:00:00.000Z', state: 'pending' },
    ],
    [
      expect.objectContaining({ id: '1c7a2b63-4d5e-4f60-9b0c-1d2e3f4a5b6c' }),
      { queued_at: '2025-03-01T10:00:00.000Z', state: 'needs-attention' },
    ],
  ])
  expect(await databaseNames()).not.toContain('contact-outbox')
})

test('when sealing fails, the plaintext records stay where they are and nothing is queued', async () => {
  await plantLegacy([
    { version: 1, submission: ADA, queuedAt: '2025-03-01T09:00:00.000Z', state: 'pending' },
  ])
  sealSubmission.mockRejectedValueOnce(Object.assign(new Error('no key'), { name: 'SealingError' }))
  const enqueue = vi.fn(async () => {})

  await expect(migrateLegacyOutbox(enqueue)).rejects.toThrow('no key')

  expect(enqueue).not.toHaveBeenCalled()
  expect(await databaseNames()).toContain('contact-outbox')
})
