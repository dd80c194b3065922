import { deleteDB, openDB } from 'idb'
import type { SealedRow } from '../../../lib/database-types'
import { siteEnv } from '../../../lib/env'
import { buildDocument, contactSubmissionSchema } from '../contact-schema'
import { loadSealer } from '../sealing/load-sealer'
import type { OutboxRecord } from './outbox-store'

/**
 * The release before sealing queued plaintext rows in the IndexedDB database "contact-outbox"
 * (store "submissions", records `{ version: 1, submission: {id, name, …}, queuedAt, state, … }`).
 * Those are messages a visitor was promised would be sent, and their text sits readable on the
 * device. So, once, on the first page that finds them: each is sealed like a new submission
 * (same id, so one already delivered answers 409) and queued in the sealed outbox, then the
 * plaintext database is deleted. If sealing is impossible (no key in this build, no Web Crypto)
 * they stay where they are and are never sent unsealed. A record that fails the schema could not
 * have been sent by that release either; it is deleted with the database.
 * Remove this module once no visitor can hold such a database (a few months after release).
 */
const LEGACY_DB_NAME = 'contact-outbox'
const LEGACY_STORE = 'submissions'

type Enqueue = (row: SealedRow, from: Pick<OutboxRecord, 'queued_at' | 'state'>) => Promise<void>

export async function migrateLegacyOutbox(enqueue: Enqueue): Promise<void> {
  const db = await openDB(LEGACY_DB_NAME)
  try {
    const values: unknown[] = db.objectStoreNames.contains(LEGACY_STORE)
      ? await db.getAll(LEGACY_STORE)
      : []
    if (values.length > 0) {
      const { sealSubmission } = await loadSealer()
      for (const value of values) {
        const legacy = value as {
          submission?: Record<string, unknown>
          queuedAt?: unknown
          state?: unknown
        }
        const fields = contactSubmissionSchema.safeParse(legacy.submission)
        const id = legacy.submission?.id
        if (!fields.success || typeof id !== 'string') continue
        const queuedAt = typeof legacy.queuedAt === 'string' ? Date.parse(legacy.queuedAt) : NaN
        const now = Number.isFinite(queuedAt) ? queuedAt : Date.now()
        const userAgent =
          typeof legacy.submission?.user_agent === 'string' ? legacy.submission.user_agent : ''
        const row = await sealSubmission(
          buildDocument(fields.data, { id, now, userAgent }),
          siteEnv.submissionKeys?.recipients ?? [],
        )
        await enqueue(row, {
          queued_at: new Date(now).toISOString(),
          state: legacy.state === 'needs-attention' ? 'needs-attention' : 'pending',
        })
      }
    }
  } finally {
    db.close()
  }
  // Only now that every sealed copy is stored: a failure above leaves the legacy data for next time.
  await deleteDB(LEGACY_DB_NAME)
}
