import { wrap, type DBSchema, type IDBPDatabase } from 'idb'
import { OUTBOX_DB_NAME, type OutboxCounts } from './outbox-definitions'
import type { FlushResult, OutboxItem, OutboxRecord, RecordBookkeeping } from './outbox-types'

/**
 * The outbox's IndexedDB store, on idb alone. It holds no zod, and it (with idb) loads only when a
 * page opens the store: a visitor who never queued anything never downloads it.
 * It holds sealed rows only: the ciphertext, its recipient-set id and bookkeeping, never a value
 * the visitor typed.
 */
export const OUTBOX_STORE = 'records'
const DB_VERSION = 1

/** The record for an item, as stored: what will be sent, due at `now`. */
export function recordFor(item: OutboxItem, now: number): OutboxRecord {
  const bookkeeping: RecordBookkeeping = {
    queued_at: new Date(now).toISOString(),
    attempts: 0,
    next_attempt_at: now,
    state: 'pending',
    last_error: null,
  }
  if (item.kind === 'message') {
    const { id, mailbox_token, sealed } = item.message
    return { v: 1, kind: 'message', id, mailbox_token, sealed, ...bookkeeping }
  }
  // Fields picked one by one: nothing else the caller's object carries is stored.
  const { id, key_id, sealed, mailbox_hash } = item.row
  const attachments = item.attachments?.map(({ object, ciphertext }) => ({ object, ciphertext }))
  return attachments?.length
    ? { v: 1, kind: 'inquiry', id, key_id, sealed, mailbox_hash, attachments, ...bookkeeping }
    : { v: 1, kind: 'inquiry', id, key_id, sealed, mailbox_hash, ...bookkeeping }
}

/** What a record sends. */
export function itemOf(record: OutboxRecord): OutboxItem {
  if (record.kind === 'message') {
    const { id, mailbox_token, sealed } = record
    return { kind: 'message', message: { id, mailbox_token, sealed } }
  }
  const { id, key_id, sealed, mailbox_hash } = record
  const row = { id, key_id, sealed, mailbox_hash }
  return record.attachments?.length
    ? { kind: 'inquiry', row, attachments: record.attachments }
    : { kind: 'inquiry', row }
}

type Bookkeeping = Pick<RecordBookkeeping, 'attempts' | 'next_attempt_at' | 'state' | 'last_error'>

interface OutboxSchema extends DBSchema {
  records: { key: string; value: OutboxRecord; indexes: { state: string } }
}

export type OutboxStore = {
  /** Queues a sealed item, due at once. The same id again replaces it: there is never a copy. */
  enqueue(item: OutboxItem, now: number): Promise<void>
  /** Every record as stored (the flush re-validates each), oldest first. */
  list(): Promise<OutboxRecord[]>
  remove(id: string): Promise<void>
  /** Updates a record's bookkeeping; false, writing nothing, if it was removed meanwhile. */
  mark(id: string, changes: Partial<Bookkeeping>): Promise<boolean>
  counts(): Promise<OutboxCounts>
  /**
   * What the service worker delivered with no page open (takeDeliveryNotes), as a round's result
   * to announce; null if nothing.
   */
  takeSent(names: ReadonlySet<string> | null): Promise<FlushResult | null>
  close(): void
}

/** `factory` is for tests (fake-indexeddb's `new IDBFactory()`); the page uses `indexedDB`. */
export async function openOutboxStore(factory: IDBFactory = indexedDB): Promise<OutboxStore> {
  // idb's openDB always uses the global indexedDB; wrap() is the same with the factory passed in.
  const request = factory.open(OUTBOX_DB_NAME, DB_VERSION)
  request.addEventListener('upgradeneeded', () => {
    // Keyed by the row's own id: queuing it twice replaces it instead of copying it.
    const store = request.result.createObjectStore(OUTBOX_STORE, { keyPath: 'id' })
    store.createIndex('state', 'state')
  })
  const db = (await wrap(request)) as IDBPDatabase<OutboxSchema>
  // A newer version of the site in another tab wants to upgrade the database: let it. The next
  // use fails, and the page reopens (outbox-engine.ts).
  db.addEventListener('versionchange', () => db.close())

  const store: OutboxStore = {
    async enqueue(item, now) {
      await db.put(OUTBOX_STORE, recordFor(item, now))
      // Should this tab close first, the service worker sends it once the connection is back.
      void requestBackgroundSync()
    },
    async list() {
      const records = await db.getAll(OUTBOX_STORE)
      return records.sort((a, b) => String(a.queued_at).localeCompare(String(b.queued_at)))
    },
    async remove(id) {
      await db.delete(OUTBOX_STORE, id)
    },
    async mark(id, changes) {
      // One transaction, so a flush finishing late cannot bring back a record just discarded.
      const tx = db.transaction(OUTBOX_STORE, 'readwrite')
      const record = await tx.store.get(id)
      if (record) await tx.store.put({ ...record, ...changes })
      await tx.done
      return record !== undefined
    },
    async counts() {
      const tx = db.transaction(OUTBOX_STORE)
      const [pending, needsAttention] = await Promise.all([
        tx.store.index('state').count('pending'),
        tx.store.index('state').count('needs-attention'),
      ])
      return { pending, needsAttention }
    },
    async takeSent(names) {
      const delivered = await takeDeliveryNotes(names, factory)
      if (delivered.length === 0) return null
      const counts = await store.counts()
      return { delivered, refused: [], counts, nextAttemptAt: null, skipped: false }
    },
    close() {
      db.close()
    },
  }
  return store
}

/**
 * Background Sync (Chromium): the tag the page registers when a message waits, and on which the
 * service worker sends the outbox (sync-worker.ts) with no tab open. Where the browser lacks it
 * (Firefox, Safari), a message waits for the site's next visit online.
 */
export const OUTBOX_SYNC_TAG = 'contact-outbox'

/** Asks the browser to wake the service worker once the connection is back; false where it cannot. */
export async function requestBackgroundSync(): Promise<boolean> {
  // Pages only: the worker's own round leaves its retry to the browser (a failed sync), and
  // registering again from there would fire at once, again and again, while the server is down.
  if (typeof window === 'undefined') return false
  try {
    const registration = await navigator.serviceWorker?.getRegistration()
    const sync = (registration as { sync?: { register(tag: string): Promise<void> } } | undefined)
      ?.sync
    if (!registration?.active || !sync) return false
    await sync.register(OUTBOX_SYNC_TAG)
    return true
  } catch {
    // No permission (a browser setting), or a worker gone: the page's own triggers remain.
    return false
  }
}

/**
 * What the service worker delivered with no page open, kept until a page says so: the id and the
 * time it was queued (never the message). Its own small database, so the outbox's stays as it is.
 */
export const SYNC_NOTES_DB_NAME = 'contact-outbox-sent'
const NOTES_STORE = 'delivered'
export type DeliveryNote = { id: string; queued_at: string }

async function openNotes(factory: IDBFactory) {
  const request = factory.open(SYNC_NOTES_DB_NAME, 1)
  request.addEventListener('upgradeneeded', () =>
    request.result.createObjectStore(NOTES_STORE, { keyPath: 'id' }),
  )
  return (await wrap(request)) as IDBPDatabase
}

/** The worker: notes what it delivered. */
export async function noteDeliveries(
  records: readonly DeliveryNote[],
  factory: IDBFactory = indexedDB,
): Promise<void> {
  const db = await openNotes(factory)
  try {
    const tx = db.transaction(NOTES_STORE, 'readwrite')
    await Promise.all([
      ...records.map(({ id, queued_at }) => tx.store.put({ id, queued_at } satisfies DeliveryNote)),
      tx.done,
    ])
  } finally {
    db.close()
  }
}

/**
 * The page: takes (reads and removes) what the worker delivered, to tell the visitor once. `names`
 * (the origin's databases, null where unknown): none is created where the worker never noted one.
 */
export async function takeDeliveryNotes(
  names: ReadonlySet<string> | null,
  factory: IDBFactory = indexedDB,
): Promise<DeliveryNote[]> {
  if (names && !names.has(SYNC_NOTES_DB_NAME)) return []
  const db = await openNotes(factory)
  try {
    const tx = db.transaction(NOTES_STORE, 'readwrite')
    const notes = (await tx.store.getAll()) as DeliveryNote[]
    await tx.store.clear()
    await tx.done
    return notes
  } finally {
    db.close()
  }
}
