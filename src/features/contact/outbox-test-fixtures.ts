import { wrap } from 'idb'
import type { ContactSubmission } from './contact-schema'
import { OUTBOX_DB_NAME, OUTBOX_STORE } from './outbox-names'

/** What the outbox's unit tests share: a fixed moment, two valid submissions, raw database access. */

export const T0 = Date.parse('2025-03-01T09:00:00.000Z')

export const ADA: ContactSubmission = {
  id: '0b6f1a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  name: 'Ada Example',
  contact: 'ada@example.com',
  project_type: 'crypto/web3-launch',
  budget: '10k-25k',
  message: 'We launch a token in March and need a quiet campaign.',
  user_agent: 'Mozilla/5.0 (test)',
}

export const BOB: ContactSubmission = {
  id: '1c7a2b63-4d5e-4f60-9b0c-1d2e3f4a5b6c',
  name: 'Bob',
  contact: '@bob_on_telegram',
  project_type: null,
  budget: null,
  message: 'Payments for a high-risk shop.',
  user_agent: 'Mozilla/5.0 (test)',
}

/** The outbox database opened around the app's code, to plant or read records as stored. */
async function rawDatabase(factory: IDBFactory) {
  const db = await wrap(factory.open(OUTBOX_DB_NAME))
  if (!db) throw new Error('could not open the outbox database')
  return db
}

export async function putRaw(factory: IDBFactory, value: unknown): Promise<void> {
  const db = await rawDatabase(factory)
  await db.put(OUTBOX_STORE, value)
  db.close()
}

export async function getAllRaw(factory: IDBFactory): Promise<unknown[]> {
  const db = await rawDatabase(factory)
  const values: unknown[] = await db.getAll(OUTBOX_STORE)
  db.close()
  return values
}
