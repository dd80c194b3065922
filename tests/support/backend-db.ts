import { randomBytes, randomUUID } from 'node:crypto'
import { armor, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption'
import pg from 'pg'
import type { SubmissionRow as StoredRow } from '../../supabase/staff/inbox-store'
import { openSealed } from './contact-form'
import { E2E_DB_URL } from './ports'

/** A row as node-postgres returns it (timestamps as Date). */
export type SubmissionRow = StoredRow & { created_at: Date }

/** A client of the database of the local backend the browser tests use (over its wire port). */
export async function withE2eDatabase<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: E2E_DB_URL })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/** The rows a statement returns in the browser tests' database. */
export const sql = <Row extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
  withE2eDatabase(async (client) => (await client.query<Row>(text, params)).rows)

/**
 * Reads `contact_submissions` as staff would. Rows are sealed: tests find theirs by id, or by the
 * name inside the sealed document (opened with the e2e backend's development identity).
 */
const query = (text: string, params: unknown[]) => sql<SubmissionRow>(text, params)

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

/**
 * A row sealed to a key set the database knows but the development identity is not in (as after
 * a rotation, on a device that holds only the new key): registered, then stored as the form would.
 */
export async function insertRowSealedToAnotherKey(): Promise<{ id: string; keyId: string }> {
  const recipient = await identityToRecipient(await generateX25519Identity())
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient)
  const sealed = armor.encode(await encrypter.encrypt(randomBytes(1024)))
  return withE2eDatabase(async (client) => {
    const registered = await client.query<{ key_id: string }>(
      `select private.register_submission_key(array[$1], 'another device') as key_id`,
      [recipient],
    )
    const keyId = registered.rows[0]?.key_id ?? ''
    const id = randomUUID()
    await client.query(
      `insert into public.contact_submissions (id, key_id, sealed, mailbox_hash)
       values ($1, $2, $3, sha256(($1::uuid)::text::bytea))`,
      [id, keyId, sealed],
    )
    return { id, keyId }
  })
}
