// @vitest-environment node
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { startLocalBackend, type LocalBackend } from './local-backend'
import { migrate } from './migrations'

/** The embedded database's life outside a single request: persistence, locking, the wire port. */

const row = (name = 'Ada') => ({
  id: randomUUID(),
  name,
  contact: 'ada@example.com',
  project_type: null,
  budget: null,
  message: 'Hello',
  user_agent: 'local-backend test',
})

function insert(backend: LocalBackend, body: unknown) {
  return fetch(`${backend.url}/rest/v1/contact_submissions`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

const toClose: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close()
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'local-backend-test-'))
  toClose.push(() => rm(dir, { recursive: true, force: true }))
  return join(dir, 'db')
}

async function start(options: Parameters<typeof startLocalBackend>[0]): Promise<LocalBackend> {
  const backend = await startLocalBackend({ apiPort: 0, dbPort: null, ...options })
  let closed = false
  toClose.push(async () => {
    if (!closed) await backend.close()
  })
  const close = backend.close
  return {
    ...backend,
    close: async () => {
      closed = true
      await close()
    },
  }
}

describe('the embedded database', () => {
  it('keeps submissions across restarts and applies each migration once', async () => {
    const dataDir = await tempDir()
    const first = await start({ dataDir })
    expect(first.migrations.applied.length).toBeGreaterThan(0)
    const submitted = row()
    expect((await insert(first, submitted)).status).toBe(201)
    await first.close()

    const second = await start({ dataDir })
    expect(second.migrations).toEqual({
      applied: [],
      alreadyApplied: first.migrations.applied.length,
    })
    const rows = await second.db.query<{ id: string }>('select id from public.contact_submissions')
    expect(rows).toEqual([{ id: submitted.id }])
  }, 60_000)

  it('refuses to open a data directory another backend is using', async () => {
    const dataDir = await tempDir()
    await start({ dataDir })
    await expect(start({ dataDir })).rejects.toThrow(/is in use by process/)
  }, 60_000)

  it('records applied migrations where the Supabase CLI does', async () => {
    const backend = await start({ dataDir: 'memory' })
    const recorded = await backend.db.query<{
      version: string
      name: string
      statements: string[]
    }>(
      'select version, name, statements from supabase_migrations.schema_migrations order by version',
    )
    expect(recorded.map((migration) => `${migration.version}_${migration.name}`)).toEqual(
      backend.migrations.applied,
    )
    expect(recorded[0]?.statements[0]).toMatch(/create table public\.contact_submissions/)
  }, 60_000)
  it('takes the Supabase baseline (bootstrap.sql) again and again, with the roles and auth helpers', async () => {
    const backend = await start({ dataDir: 'memory' })
    await expect(migrate(backend.db)).resolves.toEqual({
      applied: [],
      alreadyApplied: backend.migrations.applied.length,
    })
    const roles = await backend.db.query(
      `select rolname, rolcanlogin, rolinherit, rolbypassrls from pg_roles
        where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by rolname`,
    )
    expect(roles).toEqual([
      { rolname: 'anon', rolcanlogin: false, rolinherit: false, rolbypassrls: false },
      { rolname: 'authenticated', rolcanlogin: false, rolinherit: false, rolbypassrls: false },
      { rolname: 'authenticator', rolcanlogin: true, rolinherit: false, rolbypassrls: false },
      { rolname: 'service_role', rolcanlogin: false, rolinherit: false, rolbypassrls: true },
    ])
    const helpers = await backend.db.transaction(async (tx) => {
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({
          role: 'authenticated',
          sub: '3f1c6a1e-8c53-4f4e-9a7e-1b2f3c4d5e6f',
          email: 'ada@example.com',
        }),
      ])
      await tx.exec('set local role authenticated')
      return tx.query(
        'select auth.role() as role, auth.uid() as uid, auth.email() as email, auth.jwt() ->> $1 as sub',
        ['sub'],
      )
    })
    expect(helpers).toEqual([
      {
        role: 'authenticated',
        uid: '3f1c6a1e-8c53-4f4e-9a7e-1b2f3c4d5e6f',
        email: 'ada@example.com',
        sub: '3f1c6a1e-8c53-4f4e-9a7e-1b2f3c4d5e6f',
      },
    ])
  }, 60_000)
})

describe('the wire-protocol port', () => {
  it('lets a PostgreSQL client read the rows the API inserted', async () => {
    const backend = await start({ dataDir: 'memory', dbPort: 0 })
    expect(backend.dbUrl).toBe(
      `postgresql://postgres:postgres@127.0.0.1:${backend.dbPort}/postgres`,
    )
    const submitted = row('Grace')
    expect((await insert(backend, submitted)).status).toBe(201)

    const client = new pg.Client({ connectionString: backend.dbUrl ?? '' })
    await client.connect()
    toClose.push(() => client.end())
    const result = await client.query(
      'select name, current_user as reader from public.contact_submissions',
    )
    expect(result.rows).toEqual([{ name: 'Grace', reader: 'postgres' }])
  }, 60_000)

  it('keeps a client transaction and an API request apart (PGlite has a single session)', async () => {
    const backend = await start({ dataDir: 'memory', dbPort: 0 })
    const client = new pg.Client({ connectionString: backend.dbUrl ?? '' })
    await client.connect()
    toClose.push(() => client.end())

    await client.query('begin')
    await client.query(
      `insert into public.contact_submissions (name, contact, message) values ('Staff test', 'staff', 'rolled back')`,
    )
    // The API request waits for the client's transaction instead of running inside it…
    let settled = false
    const request = insert(backend, row('Visitor')).then((response) => {
      settled = true
      return response
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(settled).toBe(false)
    await client.query('rollback')

    // …so rolling the client back does not take the visitor's row with it.
    expect((await request).status).toBe(201)
    const names = await backend.db.query<{ name: string }>(
      'select name from public.contact_submissions',
    )
    expect(names).toEqual([{ name: 'Visitor' }])
  }, 60_000)

  it('never runs a client statement inside a transaction of the backend', async () => {
    const backend = await start({ dataDir: 'memory', dbPort: 0 })
    const client = new pg.Client({ connectionString: backend.dbUrl ?? '' })
    await client.connect()
    toClose.push(() => client.end())

    // A transaction as anon that stays open across an await, as a request's does between statements.
    let clientQuery: Promise<pg.QueryResult> | undefined
    await backend.db.transaction(async (tx) => {
      await tx.exec('set local role anon')
      clientQuery = client.query('select current_user as reader')
      await new Promise((resolve) => setTimeout(resolve, 300))
      await tx.query('select 1')
    })
    // Had it run inside that transaction, the client would have been anon.
    expect((await clientQuery)?.rows).toEqual([{ reader: 'postgres' }])
  }, 60_000)
})
