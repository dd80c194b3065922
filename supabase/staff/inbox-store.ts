import type pg from 'pg'
import type { Database } from '../../src/shared/database-types'
import type { SettableStatus } from '../../src/shared/staff-workflow'
import { UsageError } from './cli-io'

/** The SQL behind `npm run inbox`, for a client connected as a member of `contact_staff`. */

type ContactRow = Database['public']['Tables']['contact_submissions']['Row']
type Timestamp = 'created_at' | 'responded_at' | 'completed_at' | 'overdue_alerted_at'

/** A row of public.contact_submissions as node-postgres returns it: timestamps as Date. */
export type SubmissionRow = {
  [Column in keyof ContactRow]: Column extends Timestamp
    ? Date | Extract<ContactRow[Column], null>
    : ContactRow[Column]
}

export type Status = ContactRow['status']

export type ListedSubmission = {
  id: string
  created_at: Date
  status: Status
  key_id: string
  overdue: boolean
  /** Measured by the database's clock, so a laptop's wrong clock cannot hide an overdue row. */
  age_seconds: number
}

export type Counts = { total: number; new: number; overdue: number }

/** Overdue is what the database's view says it is (private.overdue_submissions), never restated here. */
const OVERDUE = `exists (select from private.overdue_submissions as o where o.id = c.id)`

/** Overdue first (oldest first), then new (oldest first: next due on top), then the rest (newest first). */
export async function listSubmissions(
  client: pg.ClientBase,
  limit: number,
): Promise<ListedSubmission[]> {
  const { rows } = await client.query<ListedSubmission>(
    `select id::text as id, created_at, status, key_id,
            (${OVERDUE}) as overdue,
            extract(epoch from now() - created_at)::float8 as age_seconds
       from public.contact_submissions as c
      order by case when ${OVERDUE} then 0 when status = 'new' then 1 else 2 end,
               case when status = 'new' then created_at end asc,
               created_at desc,
               id
      limit $1`,
    [limit],
  )
  return rows
}

export async function countSubmissions(client: pg.ClientBase): Promise<Counts> {
  const { rows } = await client.query<Counts>(
    `select count(*)::int as total,
            (count(*) filter (where status = 'new'))::int as new,
            (count(*) filter (where ${OVERDUE}))::int as overdue
       from public.contact_submissions as c`,
  )
  return rows[0] ?? { total: 0, new: 0, overdue: 0 }
}

export type StoredSubmission = SubmissionRow & {
  overdue: boolean
  age_seconds: number
}

/** A ref is the first 8 characters of the id (what alerts and `list` show); any longer prefix or the full id works too. */
export function normaliseRef(ref: string): string {
  const value = ref.trim().toLowerCase()
  if (!/^[0-9a-f][0-9a-f-]{3,35}$/.test(value)) {
    throw new UsageError(
      `"${ref}" is not a reference: give the 8 characters \`list\` shows, or the full id.`,
    )
  }
  return value
}

/** The one row a ref names; an unknown or ambiguous ref is the person's to fix. */
export async function findSubmission(
  client: pg.ClientBase,
  ref: string,
): Promise<StoredSubmission> {
  const prefix = normaliseRef(ref)
  const { rows } = await client.query<StoredSubmission>(
    `select id::text as id, created_at, status, key_id, sealed, responded_at, completed_at,
            overdue_alerted_at, (${OVERDUE}) as overdue,
            extract(epoch from now() - created_at)::float8 as age_seconds
       from public.contact_submissions as c
      where left(id::text, $2) = $1
      order by created_at
      limit 10`,
    [prefix, prefix.length],
  )
  const [first, second] = rows
  if (first === undefined)
    throw new UsageError(`No submission has a reference starting with ${prefix}.`)
  if (second !== undefined) {
    const ids = rows.map((row) => `  ${row.id}  (${row.created_at.toISOString()})`).join('\n')
    throw new UsageError(
      `${prefix} matches ${rows.length === 10 ? 'at least 10' : rows.length} submissions; give more of the id:\n${ids}`,
    )
  }
  return first
}

export type StatusChange = {
  id: string
  from: Status
  to: Status
  responded_at: Date | null
  completed_at: Date | null
}

export async function setStatus(
  client: pg.ClientBase,
  ref: string,
  status: SettableStatus,
): Promise<StatusChange> {
  const row = await findSubmission(client, ref)
  // The times are stamped by the database's trigger, not here, so the dashboard and this command agree.
  const { rows } = await client.query<{
    status: Status
    responded_at: Date | null
    completed_at: Date | null
  }>(
    `update public.contact_submissions set status = $2 where id = $1
     returning status, responded_at, completed_at`,
    [row.id, status],
  )
  const updated = rows[0]
  if (updated === undefined) {
    throw new UsageError(
      `Row ${row.id.slice(0, 8)} was not updated: this login may read but not update submissions (is it a member of contact_staff?).`,
    )
  }
  return { id: row.id, from: row.status, ...updated, to: updated.status }
}
