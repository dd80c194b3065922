import pg from 'pg'
import type { SubmissionRow as StoredRow } from '../../supabase/staff/inbox-store'
import { E2E_DB_URL } from './ports'

/** A row as node-postgres returns it (timestamps as Date). */
export type SubmissionRow = StoredRow & { created_at: Date }

/**
 * Reads `contact_submissions` in the local backend the browser tests use (its embedded database,
 * over the wire port), as staff would. Tests find their own rows by a name unique to the test.
 */
export async function submissionsNamed(name: string): Promise<SubmissionRow[]> {
  const client = new pg.Client({ connectionString: E2E_DB_URL })
  await client.connect()
  try {
    const { rows } = await client.query<SubmissionRow>(
      'select * from public.contact_submissions where name = $1 order by created_at',
      [name],
    )
    return rows
  } finally {
    await client.end()
  }
}

/** The stored rows with this id (sealed rows carry no name to search by): none, or exactly one. */
export async function submissionsWithId(id: string): Promise<SubmissionRow[]> {
  const client = new pg.Client({ connectionString: E2E_DB_URL })
  await client.connect()
  try {
    const { rows } = await client.query<SubmissionRow>('select * from public.contact_submissions where id = $1', [id])
    return rows
  } finally {
    await client.end()
  }
}

/** A name no other test (or earlier run) uses, so row counts are this test's alone. */
export function uniqueName(label: string): string {
  return `${label} ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}
