// The outbox store's connection and the records it may find on disk. The everyday behaviour
// (enqueue, list, mark, counts) is in outbox.test.ts.
// idb recognises requests by the global IDB classes, so they must exist even with a factory per test.
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { wrap, type IDBPDatabase } from 'idb'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { existingDatabases, OUTBOX_DB_NAME } from './outbox-definitions'
import { itemOf, OUTBOX_STORE, openOutboxStore, type OutboxStore } from './outbox-store'
import { checkRecord } from './outbox-flush'
import { ADA, inquiryItem, T0 } from '../contact/contact-test-fixtures'

let factory: IDBFactory
let store: OutboxStore

beforeEach(async () => {
  factory = new IDBFactory()
  store = await openOutboxStore(factory)
})
afterEach(() => {
  store.close()
  vi.unstubAllGlobals()
})

/** Opens the outbox database as a newer version of the site in another tab would. */
function upgradeFromAnotherTab(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(OUTBOX_DB_NAME, 2)
    request.onblocked = () =>
      reject(new Error('the upgrade is blocked by this page’s open connection'))
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

test('lets another tab upgrade the database instead of blocking it, and stops using the old connection', async () => {
  await store.enqueue(inquiryItem(ADA), T0)

  const upgraded = await upgradeFromAnotherTab()
  upgraded.close()

  // The page notices on its next use and reopens (outbox-engine.ts).
  await expect(store.list()).rejects.toThrow()
})

test('close() releases the connection: the database can then be deleted without waiting', async () => {
  store.close()

  await expect(store.counts()).rejects.toThrow()
  const deleted = await new Promise<string>((resolve) => {
    const request = factory.deleteDatabase(OUTBOX_DB_NAME)
    request.onblocked = () => resolve('blocked')
    request.onsuccess = () => resolve('deleted')
  })
  expect(deleted).toBe('deleted')
})

test('records damaged on disk do not stop the outbox from listing or counting', async () => {
  await store.enqueue(inquiryItem(ADA), T0)
  const db = (await wrap(factory.open(OUTBOX_DB_NAME))) as IDBPDatabase
  // Written by hand, as a browser extension, a bug or another version of the site might.
  await db.put(OUTBOX_STORE, { id: 'no-date', state: 'pending' })
  await db.put(OUTBOX_STORE, {
    id: 'numeric-date',
    queued_at: 1_740_000_000_000,
    state: 'pending',
    sealed: null,
  })
  db.close()

  const ids = (await store.list()).map((record) => record.id)
  expect(ids).toHaveLength(3)
  expect(ids).toContain(ADA.id)
  expect(await store.counts()).toStrictEqual({ pending: 3, needsAttention: 0 })
})

test('mark changes only what it is given and keeps the sealed row as it was', async () => {
  await store.enqueue(inquiryItem(ADA), T0)

  expect(
    await store.mark(ADA.id, { attempts: 2, last_error: 'Our server is busy right now.' }),
  ).toBe(true)

  expect(await store.list()).toStrictEqual([
    expect.objectContaining({
      ...ADA,
      attempts: 2,
      last_error: 'Our server is busy right now.',
      state: 'pending',
      next_attempt_at: T0,
    }),
  ])
})

test('keeps the queue in the database the site has always used for it', () => {
  // Renaming it would strand every message a visitor has queued.
  expect(OUTBOX_DB_NAME).toBe('contact-outbox-sealed')
})

test('names the databases that exist, so a page that never queued anything creates none', async () => {
  const browser = new IDBFactory()
  vi.stubGlobal('indexedDB', browser)
  expect(await existingDatabases()).toStrictEqual(new Set())

  ;(await openOutboxStore(browser)).close()
  expect(await existingDatabases()).toStrictEqual(new Set([OUTBOX_DB_NAME]))
})

test('says "cannot tell" (null) where the browser cannot list its databases', async () => {
  vi.stubGlobal('indexedDB', undefined)
  expect(await existingDatabases()).toBeNull()

  // Firefox before 126 has IndexedDB but no `databases()`.
  vi.stubGlobal('indexedDB', { open: () => undefined })
  expect(await existingDatabases()).toBeNull()
})

test('keeps an inquiry’s sealed files with it, as ciphertext under their object names, and sends them', async () => {
  const row = { ...ADA, mailbox_hash: `\\x${'a'.repeat(64)}` }
  const object = `${ADA.id}/3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3d`
  const ciphertext = new Blob([new Uint8Array([1, 2, 3])], { type: 'application/octet-stream' })
  await store.enqueue({ kind: 'inquiry', row, attachments: [{ object, ciphertext }] }, T0)
  const [record] = await store.list()
  expect(checkRecord(record).success).toBe(true)
  const item = itemOf(record!)
  expect(item).toMatchObject({ kind: 'inquiry', row, attachments: [{ object }] })
  const [stored] = (item as { attachments: Array<{ ciphertext: Blob }> }).attachments
  expect(new Uint8Array(await stored!.ciphertext.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]))
  // An object that is not under the inquiry's own id is not sent.
  const elsewhere = {
    ...record!,
    attachments: [
      {
        object: `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/${object.slice(37)}`,
        ciphertext,
      },
    ],
  }
  expect(checkRecord(elsewhere).success).toBe(false)
})
