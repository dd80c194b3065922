import { randomBytes, randomUUID } from 'node:crypto'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { Encrypter, armor, generateX25519Identity, identityToRecipient } from 'age-encryption'
import pg from 'pg'
import { afterAll, beforeAll, expect } from 'vitest'
import type { Database } from '../../src/shared/database-types'
import { totpCode } from './auth/totp'
import type { Queryable } from './database'
import { openPostgresDatabase } from './db/postgres'
import { startLocalBackend, type LocalBackend, type LocalBackendOptions } from './local-backend'
import { expectedAnswers } from './rest/expected-differences'
import { migrate } from './migrations'
import {
  POSTGREST_PACKAGE,
  REAL_POSTGREST_SUPPORTED,
  startRealPostgrest,
  type RealPostgrest,
} from './rest/real-postgrest'

/** Test helpers shared by the suites of this package (not loaded by the backend itself). */

/** A recipient registered as the active submission key, and a row sealed to it the way the browser seals. */
export async function registerTestKey(db: Queryable) {
  const identity = await generateX25519Identity()
  const recipient = await identityToRecipient(identity)
  const [row] = await db.query<{ key_id: string }>(
    `select private.register_submission_key(array[$1], 'contract tests') as key_id`,
    [recipient],
  )
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient)
  // The content does not matter to the backend: it only ever sees the armor.
  const sealed = armor.encode(await encrypter.encrypt(randomBytes(1024)))
  return {
    identity,
    keyId: row?.key_id ?? '',
    sealedRow: (overrides: Record<string, unknown> = {}) => ({
      id: randomUUID(),
      key_id: row?.key_id,
      sealed,
      mailbox_hash: `\\x${randomBytes(32).toString('hex')}`,
      ...overrides,
    }),
  }
}

/** The test server: the local PostgreSQL 15 as `postgres` unless TEST_POSTGRES_URL says otherwise. */
export const TEST_SERVER_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'

export type ThrowawayDatabase = { url: string; drop(): Promise<void> }

/**
 * A throwaway database on the test server (its user must create databases and roles), to drop
 * afterwards: empty, or `migrated` to what a Supabase project holds (bootstrap.sql, then every
 * migration in the order `migrate` applies them, as the local backend does). Fails loudly: these
 * suites must not silently skip.
 */
export async function createThrowawayDatabase(
  options: { migrated?: boolean } = {},
): Promise<ThrowawayDatabase> {
  const admin = new pg.Client({ connectionString: TEST_SERVER_URL })
  await admin.connect().catch((error: Error) => {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_SERVER_URL} (${error.message}). Start it (\`pg_ctlcluster 15 main start\`) or set TEST_POSTGRES_URL.`,
    )
  })
  const name = `throwaway_test_${Date.now()}_${randomBytes(4).toString('hex')}`
  await admin.query(`create database "${name}"`).finally(() => admin.end())
  const url = new URL(TEST_SERVER_URL)
  url.pathname = `/${name}`
  const database = {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_SERVER_URL })
      await client.connect()
      await client
        .query(`drop database if exists "${name}" with (force)`)
        .finally(() => client.end())
    },
  }
  if (options.migrated) {
    try {
      const db = await openPostgresDatabase(database.url)
      await migrate(db).finally(() => db.close())
    } catch (error) {
      await database.drop()
      throw error
    }
  }
  return database
}

/**
 * For a suite that reads a migrated project: a throwaway migrated database for the whole file,
 * and one client connected to it as `postgres`. Registers its own beforeAll and afterAll; use
 * `query` inside tests only.
 */
export function useMigratedDatabase() {
  let database: ThrowawayDatabase | undefined
  let client: pg.Client | undefined
  beforeAll(async () => {
    database = await createThrowawayDatabase({ migrated: true })
    client = new pg.Client({ connectionString: database.url })
    await client.connect()
  }, 60_000)
  afterAll(async () => {
    await client?.end()
    await database?.drop()
  })
  return {
    query<Row extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<Row[]> {
      if (!client) throw new Error('useMigratedDatabase: query is for tests, after beforeAll')
      return client.query<Row>(sql, values).then((result) => result.rows)
    },
  }
}

/**
 * The backends a contract suite runs against: the stand-in on its two databases (the embedded
 * PGlite, in memory, and a throwaway database on the test server, migrated the same way), and the
 * oracle: the real PostgREST 12.0.2 on a throwaway migrated PostgreSQL 15 database, behind the
 * stand-in's own gateway (API keys, CORS, `/rest/v1`, body limit) with the stand-in's Auth on the
 * same database. `expected` gives each test the answer to expect there (expected-differences.ts).
 * The oracle needs the linux x64 binary: elsewhere it is left out (see `oracleUnavailable`).
 */
export function testBackends(options: LocalBackendOptions = {}) {
  const standIn = expectedAnswers(false)
  const backends = [
    {
      name: 'embedded PGlite (in memory)',
      oracle: false,
      async start() {
        const backend = await startLocalBackend({
          apiPort: 0,
          dbPort: null,
          backendDir: 'memory',
          ...options,
        })
        return { backend, expected: standIn, stop: () => backend.close() }
      },
    },
    {
      name: 'PostgreSQL on 127.0.0.1:5432 (throwaway database)',
      oracle: false,
      async start() {
        const database = await createThrowawayDatabase()
        const backend = await startLocalBackend({
          apiPort: 0,
          databaseUrl: database.url,
          ...options,
        }).catch(async (error) => {
          await database.drop()
          throw error
        })
        return {
          backend,
          expected: standIn,
          stop: async () => (await backend.close(), await database.drop()),
        }
      },
    },
  ]
  if (!REAL_POSTGREST_SUPPORTED) return backends
  return [
    ...backends,
    {
      name: 'the real PostgREST 12.0.2 on PostgreSQL 15, behind the stand-in’s gateway',
      oracle: true,
      async start() {
        const database = await createThrowawayDatabase({ migrated: true })
        let postgrest: RealPostgrest | undefined
        try {
          postgrest = await startRealPostgrest(database.url, options.jwtSecret)
          const backend = await startLocalBackend({
            apiPort: 0,
            databaseUrl: database.url,
            restUpstream: postgrest.url,
            ...options,
          })
          return {
            backend,
            expected: expectedAnswers(true),
            stop: async () => {
              await backend.close()
              await postgrest?.stop()
              await database.drop()
            },
          }
        } catch (error) {
          await postgrest?.stop()
          await database.drop()
          throw error
        }
      },
    },
  ]
}

/** Why the oracle is not among the backends here, or null when it is. */
export const oracleUnavailable = REAL_POSTGREST_SUPPORTED
  ? null
  : `the real PostgREST oracle is skipped: ${POSTGREST_PACKAGE} has a linux x64 build only, and this is ${process.platform} ${process.arch}`

/**
 * Tests whose expectations change once the database is changed under a running PostgREST (new
 * functions or tables) tell it to reload its schema cache, as `supabase db push` leads it to.
 */
export async function reloadSchemaCache(db: Queryable) {
  await db.query(`notify pgrst, 'reload schema'`)
}

/** supabase-js wants a WebSocket constructor; the contract suites never open a realtime channel. */
export class NoRealtimeSocket {
  constructor() {
    throw new Error('These tests do not use realtime')
  }
}

export type TestClient = SupabaseClient<Database>

/** supabase-js against `backend` with `key` (anon unless given), sending from `address` if set. */
export function clientFor(
  backend: LocalBackend,
  key = backend.anonKey,
  address?: string,
): TestClient {
  return createClient<Database>(backend.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtimeSocket as never },
    // Supabase's gateway sets cf-connecting-ip; the stand-in passes on what the client sent.
    global: address ? { headers: { 'CF-Connecting-IP': address } } : {},
  })
}

const STAFF_PASSWORD = 'correct horse battery staple'

/** Staff as `npm run staff -- add` makes them, signed in; with TOTP (aal2) unless `aal1`. */
export async function signedInStaff(
  backend: LocalBackend,
  email: string,
  { aal1 = false } = {},
): Promise<TestClient> {
  const admin = clientFor(backend, backend.serviceRoleKey)
  const password = STAFF_PASSWORD
  expect(
    (await admin.auth.admin.createUser({ email, password, email_confirm: true })).error,
  ).toBeNull()
  expect((await admin.rpc('add_staff_member' as never, { email } as never)).error).toBeNull()
  const client = clientFor(backend)
  expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull()
  if (aal1) return client
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone' })
  if (enrolled.error) throw enrolled.error
  const challenge = await client.auth.mfa.challenge({ factorId: enrolled.data.id })
  if (challenge.error) throw challenge.error
  const verified = await client.auth.mfa.verify({
    factorId: enrolled.data.id,
    challengeId: challenge.data.id,
    code: totpCode(enrolled.data.totp.secret),
  })
  if (verified.error) throw verified.error
  return client
}
