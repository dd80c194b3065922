import type { DBSchema, IDBPDatabase } from 'idb'
import type { SealedRow } from '../../../shared/database-types'
import { OUTBOX_DB_NAME, type OutboxCounts } from './outbox-definitions'

/**
 * The outbox's IndexedDB store, on idb alone. It holds no zod, and it (with idb) loads only when a
 * page opens the store: a visitor who never queued anything never downloads it.
 * It holds sealed rows only: the ciphertext, its recipient-set id and bookkeeping, never a value
 * the visitor typed.
 */
export const OUTBOX_STORE = 'records'
const DB_VERSION = 1

/**
 * One queued message: the exact row that will be inserted, plus bookkeeping.
 * - `pending`: sent by the next flush once `next_attempt_at` has passed;
 * - `needs-attention`: refused by the backend, or damaged on disk; never sent again on its own,
 *   kept until the visitor resends or discards it.
 */
export type OutboxRecord = SealedRow & {
  v: 1
  /** When it was queued, ISO 8601: how the visitor tells messages apart ("queued at 14:05"). */
  queued_at: string
  attempts: number
  /** Epoch milliseconds before which the flush does not try it again. */
  next_attempt_at: number
  state: 'pending' | 'needs-attention'
  /** A sentence from contact-copy.ts, never the server's own words. */
  last_error: string | null
}

type Bookkeeping = Pick<OutboxRecord, 'attempts' | 'next_attempt_at' | 'state' | 'last_error'>

interface OutboxSchema extends DBSchema {
  records: { key: string; value: OutboxRecord; indexes: { state: string } }
}

export type OutboxStore = {
  /** Queues a sealed row, due at once. The same id again replaces it: there is never a copy. */
  enqueue(row: SealedRow, now: number): Promise<void>
  /** Every record as stored (the flush re-validates each), oldest first. */
  list(): Promise<OutboxRecord[]>
  remove(id: string): Promise<void>
  /** Updates a record's bookkeeping; false, writing nothing, if it was removed meanwhile. */
  mark(id: string, changes: Partial<Bookkeeping>): Promise<boolean>
  counts(): Promise<OutboxCounts>
  close(): void
}

/** `factory` is for tests (fake-indexeddb's `new IDBFactory()`); the page uses `indexedDB`. */
export async function openOutboxStore(factory: IDBFactory = indexedDB): Promise<OutboxStore> {
  // idb's openDB always uses the global indexedDB; wrap() is the same with the factory passed in.
  // Loaded before the request is made, so no event can fire before wrap() listens.
  const { wrap } = await import('idb')
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

  return {
    async enqueue(row, now) {
      await db.put(OUTBOX_STORE, {
        v: 1,
        id: row.id,
        key_id: row.key_id,
        sealed: row.sealed,
        queued_at: new Date(now).toISOString(),
        attempts: 0,
        next_attempt_at: now,
        state: 'pending',
        last_error: null,
      })
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
    close() {
      db.close()
    },
  }
}
