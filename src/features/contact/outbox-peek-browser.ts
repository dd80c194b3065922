import { OUTBOX_DB_NAME, OUTBOX_STORE } from './outbox-names'
// A type only: erased from the bundle, so idb and zod stay out of this light module.
import type { OutboxCounts } from './outbox-store'

/**
 * Cheap looks at the outbox with the bare IndexedDB API, so that a page loads the outbox code
 * (idb, zod, the Supabase sender) only when this browser has something queued, and can show the
 * status line while that code cannot be loaded (offline before the service worker cached it).
 * Neither ever creates the database: the outbox's own upgrade must be the one to do that.
 */

const NONE: OutboxCounts = { pending: 0, needsAttention: 0 }

/** Opens the outbox database if it exists; resolves null (creating nothing) if it does not. */
function openExisting(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null)
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(OUTBOX_DB_NAME)
    // An upgrade from version 0 means it did not exist: abort, so it still does not.
    request.onupgradeneeded = () => request.transaction?.abort()
    request.onerror = () => (request.error?.name === 'AbortError' ? resolve(null) : reject(request.error))
    request.onsuccess = () => resolve(request.result)
  })
}

async function readCounts(db: IDBDatabase): Promise<OutboxCounts> {
  try {
    if (!db.objectStoreNames.contains(OUTBOX_STORE)) return NONE
    const records = await new Promise<{ state?: unknown }[]>((resolve, reject) => {
      const request = db.transaction(OUTBOX_STORE).objectStore(OUTBOX_STORE).getAll()
      request.onsuccess = () => resolve(request.result as { state?: unknown }[])
      request.onerror = () => reject(request.error)
    })
    const pending = records.filter((record) => record.state === 'pending').length
    return { pending, needsAttention: records.length - pending }
  } finally {
    db.close()
  }
}

/** Whether this browser has ever queued a submission (its outbox database exists). */
export async function outboxMayHaveRecords(): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false
  try {
    if (typeof indexedDB.databases === 'function') {
      return (await indexedDB.databases()).some((database) => database.name === OUTBOX_DB_NAME)
    }
    // Older engines (Firefox before 126) cannot list databases: open it without creating it.
    const db = await openExisting()
    if (!db) return false
    const counts = await readCounts(db)
    return counts.pending + counts.needsAttention > 0
  } catch {
    return true
  }
}

/** The outbox's counts, for the status line. */
export async function peekOutboxCounts(): Promise<OutboxCounts> {
  const db = await openExisting()
  return db ? readCounts(db) : NONE
}
