import { describe, expect, it } from 'vitest'
import { useMigratedDatabase } from '../../supabase/local/test-support'
import type { Database } from './database-types'

type Table = Database['public']['Tables']['contact_submissions']

/**
 * The hand-written `Database` type, as runtime lists the compiler holds to it: `satisfies` fails the
 * typecheck when a key is missing or extra, so these lists and the type cannot disagree.
 */
const rowColumns = {
  id: true,
  created_at: true,
  key_id: true,
  sealed: true,
  status: true,
  responded_at: true,
  completed_at: true,
  overdue_alerted_at: true,
  name: true,
  contact: true,
  project_type: true,
  budget: true,
  message: true,
  user_agent: true,
} as const satisfies Record<keyof Table['Row'], true>

const insertColumns = { id: true, key_id: true, sealed: true } as const satisfies Record<
  keyof Table['Insert'],
  true
>

const database = useMigratedDatabase()

describe('the Database type of the browser client, against the real table on PostgreSQL', () => {
  it('names exactly the columns of public.contact_submissions', async () => {
    const rows = await database.query<{ column_name: string }>(
      `select column_name from information_schema.columns
        where table_schema = 'public' and table_name = 'contact_submissions' order by column_name`,
    )
    expect(rows.map((row) => row.column_name)).toEqual(Object.keys(rowColumns).sort())
  })

  it('types as insertable exactly the columns anon may insert', async () => {
    const rows = await database.query<{ column_name: string }>(
      `select column_name from information_schema.column_privileges
        where table_schema = 'public' and table_name = 'contact_submissions'
          and grantee = 'anon' and privilege_type = 'INSERT' order by column_name`,
    )
    expect(rows.map((row) => row.column_name)).toEqual(Object.keys(insertColumns).sort())
  })

  it('types as nullable exactly the columns that may be null', async () => {
    const rows = await database.query<{ column_name: string; is_nullable: 'YES' | 'NO' }>(
      `select column_name, is_nullable from information_schema.columns
        where table_schema = 'public' and table_name = 'contact_submissions'`,
    )
    const notNull = rows
      .filter((row) => row.is_nullable === 'NO')
      .map((row) => row.column_name)
      .sort()
    // The columns whose Row type has no `null`: checked here against the database's NOT NULLs.
    const nonNullable: (keyof Table['Row'])[] = ['created_at', 'id', 'status']
    expect(notNull).toEqual(nonNullable)
  })
})
