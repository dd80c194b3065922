import pg from 'pg'
import type { SubmissionRow as StoredRow } from '../../supabase/staff/inbox-store'
import { openSealed } from './contact-form'
import { E2E_DB_URL } from './ports'

/** A row as node-postgres returns it (timestamps as Date). */
export type SubmissionRow = StoredRow & { created_at: Date }

/**
 * Reads `contact_submissions` in the local backend the browser tests use (its embedded database,
 * over the wire port), as staff would. Rows are sealed: tests find theirs by id, or by the name
 * inside the sealed document (opened with the e2e backend's development identity).
 */
async function query(sql: string, params: unknown[]): Promise<SubmissionRow[]> {
  const client = new pg.Client({ connectionString: E2E_DB_URL })
  await client.connect()
  try {
    return (await client.query<SubmissionRow>(sql, params)).rows
  } finally {
    await client.end()
  }
}

/** The stored rows with this id: none, or exactly one. */
export function submissionsWithId(id: string): Promise<SubmissionRow[]> {
  return query('select * from public.contact_submissions where id = $1', [id])
}

/** The rows of the last hour whose sealed document carries this name. */
export async function submissionsNamed(name: string): Promise<SubmissionRow[]> {
  const recent = await query(
    `select * from public.contact_submissions
      where sealed is not null and created_at > now() - interval '1 hour' order by created_at`,
    [],
  )
  const opened = await Promise.all(
    recent.map(async (row) => (await openSealed(row.sealed ?? '')).name),
  )
  return recent.filter((_, index) => opened[index] === name)
}

/** A name no other test (or earlier run) uses, so row counts are this test's alone. */
export function uniqueName(label: string): string {
  return `${label} ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}
