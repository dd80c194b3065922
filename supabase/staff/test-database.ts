import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

/**
 * For tests: a throwaway database on a real PostgreSQL holding what a Supabase project holds (the
 * local backend's bootstrap.sql, then every migration in version order, as tests/db/run-pgtap.sh
 * applies them). TEST_POSTGRES_URL names the server; by default the local cluster as `postgres`.
 */

export const TEST_SERVER_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
const SUPABASE_DIR = fileURLToPath(new URL('../', import.meta.url))

export type ProjectDatabase = { url: string; drop(): Promise<void> }

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

export async function createProjectDatabase(): Promise<ProjectDatabase> {
  const name = `staff_test_${Date.now()}_${randomBytes(4).toString('hex')}`
  await withClient(TEST_SERVER_URL, (admin) => admin.query(`create database "${name}"`))
  const url = new URL(TEST_SERVER_URL)
  url.pathname = `/${name}`
  const drop = () =>
    withClient(TEST_SERVER_URL, (admin) =>
      admin.query(`drop database if exists "${name}" with (force)`),
    ).then(() => undefined)
  try {
    const migrationsDir = join(SUPABASE_DIR, 'migrations')
    const migrations = (await readdir(migrationsDir)).filter((file) => /^\d+_.*\.sql$/.test(file))
    // Versions are fixed-width UTC timestamps, so byte order is version order.
    migrations.sort()
    const scripts = [
      join(SUPABASE_DIR, 'local', 'bootstrap.sql'),
      ...migrations.map((file) => join(migrationsDir, file)),
    ]
    await withClient(url.toString(), async (client) => {
      await client.query('set client_min_messages = warning')
      for (const script of scripts) {
        // Without parameters pg uses the simple query protocol, which runs a whole script.
        await client.query(`begin;\n${await readFile(script, 'utf8')}\n;commit;`)
      }
    })
  } catch (error) {
    await drop()
    throw error
  }
  return { url: url.toString(), drop }
}
