import { wrap, type DBSchema, type IDBPDatabase } from 'idb'
import { z } from 'zod'
import { contactSubmissionSchema, type ContactSubmission } from './contact-schema'
import { OUTBOX_DB_NAME, OUTBOX_STORE } from './outbox-names'

/** The IndexedDB schema version (object stores). Record shapes are versioned inside each record. */
const DB_VERSION = 1

/**
 * One queued submission: the exact row that will be inserted, plus bookkeeping. Nothing else is
 * stored (no headers, no keys, no page state).
 * - `pending`: sent by the next flush once `nextAttemptAt` has passed;
 * - `needs-attention`: the backend refused it, or it no longer passes the schema; it is never sent
 *   again on its own, and stays until the visitor resends or discards it.
 */
export type OutboxRecord = {
  version: 1
  submission: ContactSubmission
  /** When it was queued, ISO 8601. */
  queuedAt: string
  /** Failed send attempts so far. */
  attempts: number
  /** Epoch milliseconds before which the flush does not try it again. */
  nextAttemptAt: number
  state: 'pending' | 'needs-attention'
  lastError: string | null
}

export type OutboxCounts = { pending: number; needsAttention: number }

export interface Outbox {
  /**
   * Validates and queues a submission, due at once. Queuing an id that is already there replaces
   * that record (same key), so there is never a second copy. Throws the ZodError of an invalid
   * submission: only what can be sent as it is gets queued.
   */
  enqueue(submission: ContactSubmission, now: number): Promise<OutboxRecord>
  /** Every record, oldest first. */
  list(): Promise<OutboxRecord[]>
  get(id: string): Promise<OutboxRecord | undefined>
  remove(id: string): Promise<void>
  /** Replaces a stored record; returns false, writing nothing, if it was removed meanwhile. */
  update(record: OutboxRecord): Promise<boolean>
  count(): Promise<OutboxCounts>
  close(): void
}

interface OutboxSchema extends DBSchema {
  // Values are `unknown` on purpose: a record may have been written by another version.
  submissions: { key: string; value: unknown }
}

/**
 * Opens the outbox database. `factory` defaults to the page's `indexedDB`; tests pass their own
 * (fake-indexeddb's `new IDBFactory()`) so that each test has its own empty database. `onClosed`
 * is called when the connection closes itself to let a newer version of the site upgrade it, so
 * the caller can open a fresh one.
 */
export async function openOutbox(factory?: IDBFactory, onClosed?: () => void): Promise<Outbox> {
  const db = await openDatabase(factory ?? pageIndexedDB(), onClosed)

  async function list(): Promise<OutboxRecord[]> {
    const records = (await db.getAll(OUTBOX_STORE)).map(readRecord)
    return records.sort(
      (a, b) =>
        Date.parse(a.queuedAt) - Date.parse(b.queuedAt) ||
        a.submission.id.localeCompare(b.submission.id),
    )
  }

  return {
    async enqueue(submission, now) {
      const record: OutboxRecord = {
        version: 1,
        submission: contactSubmissionSchema.parse(submission),
        queuedAt: new Date(now).toISOString(),
        attempts: 0,
        nextAttemptAt: now,
        state: 'pending',
        lastError: null,
      }
      await db.put(OUTBOX_STORE, record)
      return record
    },
    list,
    async get(id) {
      const raw: unknown = await db.get(OUTBOX_STORE, id)
      return raw === undefined ? undefined : readRecord(raw)
    },
    async remove(id) {
      await db.delete(OUTBOX_STORE, id)
    },
    async update(record) {
      // Checked in the same transaction, so that a flush finishing late cannot bring back a
      // record the visitor has just discarded.
      const tx = db.transaction(OUTBOX_STORE, 'readwrite')
      const exists = (await tx.store.getKey(record.submission.id)) !== undefined
      if (exists) await tx.store.put(record)
      await tx.done
      return exists
    },
    async count() {
      const records = await list()
      const pending = records.filter((record) => record.state === 'pending').length
      return { pending, needsAttention: records.length - pending }
    },
    close() {
      db.close()
    },
  }
}

async function openDatabase(
  factory: IDBFactory,
  onClosed?: () => void,
): Promise<IDBPDatabase<OutboxSchema>> {
  // idb's `openDB` always uses the global `indexedDB`; opening through `wrap` is the same thing
  // with the factory as an argument.
  const request = factory.open(OUTBOX_DB_NAME, DB_VERSION)
  request.addEventListener('upgradeneeded', (event) => {
    if (event.oldVersion < 1) {
      // Keyed by the submission's own id: queuing it twice replaces it instead of copying it.
      request.result.createObjectStore(OUTBOX_STORE, { keyPath: 'submission.id' })
    }
  })
  const db = (await wrap(request)) as IDBPDatabase<OutboxSchema> | undefined
  if (!db) throw new Error(`Could not open the IndexedDB database "${OUTBOX_DB_NAME}".`)
  // A newer version of the site in another tab wants to upgrade the database: let it.
  db.addEventListener('versionchange', () => {
    db.close()
    onClosed?.()
  })
  return db
}

function pageIndexedDB(): IDBFactory {
  if (typeof indexedDB === 'undefined') {
    throw new Error('IndexedDB is not available here: the contact outbox only runs in a browser.')
  }
  return indexedDB
}

/** The shape of a version-1 record. The submission is checked for types only: the flush
 * re-validates its content with `contactSubmissionSchema` before sending it. */
const recordV1Schema = z.object({
  version: z.literal(1),
  submission: z.object({
    id: z.string(),
    name: z.string(),
    contact: z.string(),
    project_type: z.string().nullable(),
    budget: z.string().nullable(),
    message: z.string(),
    user_agent: z.string(),
  }),
  queuedAt: z.iso.datetime(),
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: z.number().finite(),
  state: z.enum(['pending', 'needs-attention']),
  lastError: z.string().nullable(),
})

export const UNREADABLE_RECORD_MESSAGE =
  'This message was saved by a different version of this site and was not sent. Please check it and send it again.'

/**
 * Reads a stored value of any shape without losing what the visitor typed. A version-1 record
 * comes back as it is. Anything else (an older or newer record version, a damaged record) comes
 * back as a `needs-attention` record carrying every submission field that can be found, so the
 * app can give it back to the visitor; it is never sent automatically. Reading writes nothing:
 * the stored value stays as it was until the visitor resends or discards it.
 *
 * Record version 1 is the first; a later version adds its upgrade from the older shape here.
 */
export function readRecord(raw: unknown): OutboxRecord {
  const current = recordV1Schema.safeParse(raw)
  if (current.success) return current.data
  return recoverRecord(raw)
}

function recoverRecord(raw: unknown): OutboxRecord {
  const stored = isObject(raw) ? raw : {}
  // An unversioned record may hold the submission fields at its top level.
  const fields = isObject(stored.submission) ? stored.submission : stored
  return {
    version: 1,
    submission: {
      id: asText(fields.id),
      name: asText(fields.name),
      contact: asText(fields.contact),
      project_type: asChoice(fields.project_type),
      budget: asChoice(fields.budget),
      message: asText(fields.message),
      user_agent: asText(fields.user_agent),
    },
    queuedAt:
      typeof stored.queuedAt === 'string' && !Number.isNaN(Date.parse(stored.queuedAt))
        ? new Date(stored.queuedAt).toISOString()
        : new Date(0).toISOString(), // unknown age: sorts first
    attempts:
      typeof stored.attempts === 'number' &&
      Number.isInteger(stored.attempts) &&
      stored.attempts >= 0
        ? stored.attempts
        : 0,
    nextAttemptAt:
      typeof stored.nextAttemptAt === 'number' && Number.isFinite(stored.nextAttemptAt)
        ? stored.nextAttemptAt
        : 0,
    state: 'needs-attention',
    lastError: UNREADABLE_RECORD_MESSAGE,
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// Keeps any value as text rather than dropping it; the visitor sees it and decides.
function asText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value)
  }
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return String(value)
  }
}

function asChoice(value: unknown): string | null {
  return value === undefined || value === null || value === '' ? null : asText(value)
}
