// @vitest-environment node
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { ensureDevIdentity } from './dev-identity'
import { startLocalBackend, type LocalBackend, type LocalBackendOptions } from './local-backend'
import { localDatabaseUrl } from './local-connection'
import { migrate } from './migrations'
import { backendPaths } from './paths'
import { registerTestKey } from './test-support'

/** The backend's life outside a single request: its folder, lock, timers and the wire port. */

const toClose: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close().catch(() => {})
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'local-backend-test-'))
  toClose.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** Every entry under `dir` (itself included) whose permission bits are not `0700` / `0600`. */
async function notOwnerOnly(dir: string): Promise<string[]> {
  const found: string[] = []
  const visit = async (path: string) => {
    const stats = await lstat(path)
    const mode = stats.mode & 0o777
    if (stats.isDirectory()) {
      if (mode !== 0o700) found.push(`${path} ${mode.toString(8)}`)
      for (const name of await readdir(path)) await visit(join(path, name))
    } else if (!stats.isSymbolicLink() && mode !== 0o600) found.push(`${path} ${mode.toString(8)}`)
  }
  await visit(dir)
  return found
}

async function start(options: LocalBackendOptions): Promise<LocalBackend> {
  const backend = await startLocalBackend({ apiPort: 0, dbPort: null, ...options })
  toClose.push(() => backend.close())
  return backend
}

async function connect(url: string | null): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url ?? '' })
  await client.connect()
  client.on('error', () => {})
  toClose.push(() => client.end())
  return client
}

function insert(backend: LocalBackend, body: unknown) {
  return fetch(`${backend.url}/rest/v1/contact_submissions`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

describe('the backend folder', () => {
  it('keeps rows across restarts, applies each migration once and registers the development key', async () => {
    const backendDir = await tempDir()
    const first = await start({ backendDir })
    expect(first.migrations.applied.length).toBeGreaterThan(0)
    const { recipient } = await ensureDevIdentity(backendDir)
    const keys = await first.db.query(
      'select label, status from private.submission_keys where $1 = any (recipients)',
      [recipient],
    )
    expect(keys).toEqual([{ label: 'local development', status: 'active' }])
    const sent = (await registerTestKey(first.db)).sealedRow()
    expect((await insert(first, sent)).status).toBe(201)
    await first.close()

    const second = await start({ backendDir })
    expect(second.migrations).toEqual({
      applied: [],
      alreadyApplied: first.migrations.applied.length,
    })
    expect(await second.db.query('select id from public.contact_submissions')).toEqual([
      { id: sent.id },
    ])
  }, 60_000)

  it('keeps its folder owner-only (0700 folders, 0600 files) under a umask of 022, and tightens an old one', async () => {
    const umask = process.umask(0o022)
    try {
      const backendDir = await tempDir()
      // A folder left by an older version: readable and writable by everyone.
      await chmod(backendDir, 0o777)
      await mkdir(join(backendDir, 'db'), { mode: 0o777 })
      await writeFile(join(backendDir, 'db', 'old-file'), 'old', { mode: 0o666 })
      await chmod(join(backendDir, 'db'), 0o777)
      // Not the backend's: LOCAL_BACKEND_DIR may name a folder that holds other things too.
      const notes = join(backendDir, 'notes.txt')
      await writeFile(notes, 'mine', { mode: 0o644 })
      const backend = await start({ backendDir, dbPort: 0 })
      const { sealedRow } = await registerTestKey(backend.db)
      expect((await insert(backend, sealedRow())).status).toBe(201)
      await backend.db.exec('checkpoint')
      expect(await notOwnerOnly(backendDir)).toEqual([`${notes} 644`])
      await backend.close()
      expect(await notOwnerOnly(backendDir)).toEqual([`${notes} 644`])
    } finally {
      process.umask(umask)
    }
  }, 60_000)

  it('refuses a second backend on the same folder, with a clear message', async () => {
    const backendDir = await tempDir()
    await start({ backendDir })
    await expect(start({ backendDir })).rejects.toThrow(
      /Another local backend is using .* Stop it first/,
    )
  }, 60_000)

  it('notices when its lock is taken away, so it can stop before a second backend writes', async () => {
    const backendDir = await tempDir()
    let lost: Error | null = null
    await start({ backendDir, onLockLost: (error) => (lost = error) })
    await rm(backendPaths(backendDir).lockFile, { recursive: true })
    await expect.poll(() => lost, { timeout: 20_000, interval: 500 }).not.toBeNull()
  }, 60_000)

  it('purges at start: a row completed long ago is gone after a restart, a recent one stays', async () => {
    const backendDir = await tempDir()
    const first = await start({ backendDir, dbPort: 0 })
    const { sealedRow } = await registerTestKey(first.db)
    const [longDone, justDone] = [sealedRow(), sealedRow()]
    const staff = await connect(first.dbUrl)
    await staff.query(
      `insert into public.contact_submissions (id, key_id, sealed, mailbox_hash, status, created_at, completed_at)
       select id, key_id, sealed, decode(substr(mailbox_hash, 3), 'hex'), 'completed',
              now() - make_interval(days => age), now() - make_interval(hours => since)
         from json_to_recordset($1::json)
           as row (id uuid, key_id text, sealed text, mailbox_hash text, age integer, since integer)`,
      [
        JSON.stringify([
          { ...longDone, age: 10, since: 48 },
          { ...justDone, age: 3, since: 1 },
        ]),
      ],
    )
    await staff.end()
    await first.close()

    const second = await start({ backendDir })
    const left = await second.db.query<{ id: string }>(
      'select id::text as id from public.contact_submissions where id = any ($1::uuid[])',
      [[longDone.id, justDone.id]],
    )
    expect(left).toEqual([{ id: justDone.id }])
  }, 60_000)

  it('takes the Supabase baseline (bootstrap.sql) again and again', async () => {
    const backend = await start({ backendDir: 'memory' })
    await expect(migrate(backend.db)).resolves.toEqual({
      applied: [],
      alreadyApplied: backend.migrations.applied.length,
    })
    const roles = await backend.db.query(
      `select rolname, rolcanlogin, rolbypassrls from pg_roles
        where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by rolname`,
    )
    expect(roles).toEqual([
      { rolname: 'anon', rolcanlogin: false, rolbypassrls: false },
      { rolname: 'authenticated', rolcanlogin: false, rolbypassrls: false },
      { rolname: 'authenticator', rolcanlogin: true, rolbypassrls: false },
      { rolname: 'service_role', rolcanlogin: false, rolbypassrls: true },
    ])
    expect(
      await backend.db.query(
        `select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pgcrypto'`,
      ),
    ).toEqual([{ schema: 'extensions' }])
  }, 60_000)
})

describe('staff tools find this checkout’s database', () => {
  it('localDatabaseUrl() gives the running backend’s wire URL, and a clear error once it stops', async () => {
    const backendDir = await tempDir()
    const backend = await start({ backendDir, dbPort: 0 })
    await expect(localDatabaseUrl(backendDir)).resolves.toBe(backend.dbUrl)
    await backend.close()
    await expect(localDatabaseUrl(backendDir)).rejects.toThrow(
      `No local backend is running for ${backendDir}`,
    )
  }, 60_000)

  it('refuses a port that answers for another backend folder', async () => {
    const backendDir = await tempDir()
    const backend = await start({ backendDir, dbPort: 0 })
    const other = await start({ backendDir: await tempDir(), dbPort: 0 })
    const { connectionFile } = backendPaths(backendDir)
    const info = JSON.parse(await readFile(connectionFile, 'utf8')) as Record<string, unknown>
    await writeFile(connectionFile, JSON.stringify({ ...info, url: other.dbUrl }))
    await expect(localDatabaseUrl(backendDir)).rejects.toThrow(
      `${other.dbUrl} answers, but it is not the backend of`,
    )
    expect(backend.dbUrl).not.toBe(other.dbUrl)
  }, 60_000)
})

describe('the wire port authenticates as PostgreSQL does (SCRAM-SHA-256)', () => {
  /** The SQLSTATE a connection attempt is refused with, or 'connected'. */
  async function refusal(url: string): Promise<string> {
    const client = new pg.Client({ connectionString: url })
    client.on('error', () => {})
    try {
      await client.connect()
      await client.end()
      return 'connected'
    } catch (error) {
      return (error as { code?: string }).code ?? String(error)
    }
  }
  const as = (dbUrl: string | null, user: string, password: string, database = 'postgres') => {
    const url = new URL(dbUrl ?? '')
    url.username = user
    url.password = password
    url.pathname = `/${database}`
    return url.toString()
  }

  it('postgres with the local password gets in; a wrong password, an unknown user or database does not', async () => {
    const backend = await start({ backendDir: 'memory', dbPort: 0 })
    expect(new URL(backend.dbUrl ?? '').password).toBe('postgres')
    expect(await refusal(backend.dbUrl ?? '')).toBe('connected')
    expect(await refusal(as(backend.dbUrl, 'postgres', 'not the password'))).toBe('28P01')
    expect(await refusal(as(backend.dbUrl, 'nobody', 'postgres'))).toBe('28P01')
    expect(await refusal(as(backend.dbUrl, 'postgres', 'postgres', 'elsewhere'))).toBe('3D000')
    // authenticator may log in but has no password; anon has neither.
    expect(await refusal(as(backend.dbUrl, 'authenticator', 'postgres'))).toBe('28P01')
    expect(await refusal(as(backend.dbUrl, 'anon', 'postgres'))).toBe('28P01')
  }, 60_000)

  it('a role with LOGIN and a password gets in and works as that role; without LOGIN it is refused', async () => {
    const backend = await start({ backendDir: 'memory', dbPort: 0 })
    await backend.db.exec(
      `create role wire_reader login password 'reader password';
       create role wire_nologin nologin password 'nologin password';`,
    )
    const reader = await connect(as(backend.dbUrl, 'wire_reader', 'reader password'))
    const { rows } = await reader.query('select current_user as who, session_user as session')
    expect(rows).toEqual([{ who: 'wire_reader', session: 'wire_reader' }])
    await expect(reader.query('select count(*) from auth.users')).rejects.toMatchObject({
      code: '42501',
    })
    // The API's request between two statements does not leave the reader as superuser.
    expect((await insert(backend, {})).status).toBeGreaterThanOrEqual(400)
    expect((await reader.query('select current_user as who')).rows).toEqual([
      { who: 'wire_reader' },
    ])
    expect(await refusal(as(backend.dbUrl, 'wire_reader', 'wrong'))).toBe('28P01')
    expect(await refusal(as(backend.dbUrl, 'wire_nologin', 'nologin password'))).toBe('28000')
  }, 60_000)
})

describe('psql on the wire port cannot change the API’s session (PGlite has one)', () => {
  it('a session setting made in psql does not reach the next request', async () => {
    const backend = await start({ backendDir: 'memory', dbPort: 0 })
    const { sealedRow } = await registerTestKey(backend.db)
    const psql = await connect(backend.dbUrl)
    await psql.query('set default_transaction_read_only = on')
    await psql.query(`set session_replication_role = replica`)
    await psql.query('set session authorization authenticated')
    expect((await insert(backend, sealedRow())).status).toBe(201)
  }, 60_000)

  it('an open psql transaction is rolled back and its connection closed, instead of inserts hanging', async () => {
    const backend = await start({ backendDir: 'memory', dbPort: 0 })
    const { sealedRow } = await registerTestKey(backend.db)
    const psql = await connect(backend.dbUrl)
    await psql.query('begin')
    const draft = sealedRow()
    await psql.query(
      `insert into public.contact_submissions (id, key_id, sealed, mailbox_hash)
       values ($1, $2, $3, decode(substr($4, 3), 'hex'))`,
      [draft.id, draft.key_id, draft.sealed, draft.mailbox_hash],
    )

    const started = Date.now()
    expect((await insert(backend, sealedRow())).status).toBe(201)
    expect(Date.now() - started).toBeLessThan(5_000)
    await expect(psql.query('commit')).rejects.toThrow()
    expect(
      await backend.db.query(`select id from public.contact_submissions where id = $1`, [draft.id]),
    ).toEqual([])
  }, 60_000)

  it('never runs a psql statement inside a transaction of the backend', async () => {
    const backend = await start({ backendDir: 'memory', dbPort: 0 })
    const psql = await connect(backend.dbUrl)
    let clientQuery: Promise<pg.QueryResult> | undefined
    await backend.db.transaction(async (tx) => {
      await tx.exec('set local role anon')
      clientQuery = psql.query('select current_user as reader')
      await new Promise((resolve) => setTimeout(resolve, 300))
      await tx.query('select 1')
    })
    expect((await clientQuery)?.rows).toEqual([{ reader: 'postgres' }])
  }, 60_000)
})
