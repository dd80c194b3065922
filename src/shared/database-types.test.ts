import { describe, expect, it } from 'vitest'
import { useMigratedDatabase } from '../../supabase/local/test-support'
import type { Database } from './database-types'

type Table = Database['public']['Tables']['contact_submissions']
type Messages = Database['public']['Tables']['contact_messages']
type Functions = Database['public']['Functions']

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
  mailbox_hash: true,
  responded_by: true,
  awaiting_reply_since: true,
} as const satisfies Record<keyof Table['Row'], true>

const insertColumns = {
  id: true,
  key_id: true,
  sealed: true,
  mailbox_hash: true,
} as const satisfies Record<keyof Table['Insert'], true>

const messageColumns = {
  id: true,
  submission_id: true,
  direction: true,
  sealed: true,
  author_email: true,
  created_at: true,
} as const satisfies Record<keyof Messages['Row'], true>

const messageInsertColumns = {
  id: true,
  submission_id: true,
  sealed: true,
} as const satisfies Record<keyof Messages['Insert'], true>

/** The visitor's functions and their named arguments, in declaration order. */
const visitorFunctions = {
  read_thread: ['mailbox_token'],
  add_to_thread: ['mailbox_token', 'message_id', 'sealed'],
  reserve_attachment: ['object_name', 'byte_count'],
} as const satisfies {
  [
    Name in 'read_thread' | 'add_to_thread' | 'reserve_attachment'
  ]: readonly (keyof Functions[Name]['Args'])[]
}

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
    const nonNullable: (keyof Table['Row'])[] = [
      'created_at',
      'id',
      'key_id',
      'mailbox_hash',
      'sealed',
      'status',
    ]
    expect(notNull).toEqual(nonNullable)
  })

  it('types contact_messages with exactly its columns, and as insertable what staff may insert', async () => {
    const columns = await database.query<{ column_name: string; is_nullable: 'YES' | 'NO' }>(
      `select column_name, is_nullable from information_schema.columns
        where table_schema = 'public' and table_name = 'contact_messages' order by column_name`,
    )
    expect(columns.map((row) => row.column_name)).toEqual(Object.keys(messageColumns).sort())
    const nullable: (keyof Messages['Row'])[] = ['author_email']
    expect(
      columns.filter((row) => row.is_nullable === 'YES').map((row) => row.column_name),
    ).toEqual(nullable)
    const insertable = await database.query<{ column_name: string }>(
      `select column_name from information_schema.column_privileges
        where table_schema = 'public' and table_name = 'contact_messages'
          and grantee = 'authenticated' and privilege_type = 'INSERT' order by column_name`,
    )
    expect(insertable.map((row) => row.column_name)).toEqual(
      Object.keys(messageInsertColumns).sort(),
    )
  })

  it('types the visitor functions with the arguments PostgREST names them by', async () => {
    const functions = await database.query<{ name: string; args: string[] }>(
      `select p.proname as name, p.proargnames as args from pg_proc as p
        where p.pronamespace = 'public'::regnamespace
          and p.proname in ('read_thread', 'add_to_thread', 'reserve_attachment')
        order by 1`,
    )
    expect(functions).toEqual([
      { name: 'add_to_thread', args: [...visitorFunctions.add_to_thread] },
      { name: 'read_thread', args: [...visitorFunctions.read_thread] },
      { name: 'reserve_attachment', args: [...visitorFunctions.reserve_attachment] },
    ])
  })
})
