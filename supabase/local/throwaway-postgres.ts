import { randomBytes } from 'node:crypto'
import pg from 'pg'

/**
 * A throwaway database on a real PostgreSQL for tests: created empty, dropped afterwards.
 * The server is TEST_POSTGRES_URL, by default the local cluster as superuser `postgres`
 * (it must be able to create databases and, for the bootstrap, roles).
 */

export const DEFAULT_TEST_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/postgres'

export type ThrowawayDatabase = { url: string; name: string; drop(): Promise<void> }

export async function createThrowawayDatabase(
  serverUrl: string = process.env.TEST_POSTGRES_URL ?? DEFAULT_TEST_POSTGRES_URL,
): Promise<ThrowawayDatabase> {
  const admin = new pg.Client({ connectionString: serverUrl })
  try {
    await admin.connect()
  } catch (error) {
    // Fail loudly: these suites prove behaviour on real PostgreSQL and must not silently skip.
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(
      `PostgreSQL is not reachable at ${serverUrl.replace(/:[^:@/]*@/, ':***@')} (${reason}). ` +
        'Start it (`pg_ctlcluster 15 main start`) or point TEST_POSTGRES_URL at a server whose user can create databases and roles.',
    )
  }
  const name = `local_backend_test_${Date.now()}_${randomBytes(4).toString('hex')}`
  try {
    await admin.query(`create database "${name}"`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      try {
        await client.query(`drop database if exists "${name}" with (force)`)
      } finally {
        await client.end()
      }
    },
  }
}
