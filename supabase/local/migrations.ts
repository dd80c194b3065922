import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Database } from './database'
import { BOOTSTRAP_SQL, MIGRATIONS_DIR } from './paths'
import { splitSqlStatements } from './sql-statements'

export type MigrationFile = { version: string; name: string; path: string }

/** The Supabase CLI's file name rule: `<version>_<name>.sql`, version being digits. */
const MIGRATION_FILE = /^([0-9]+)_(.*)\.sql$/

/** Migration files in the order the CLI applies them (by version). */
export async function listMigrations(dir: string = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const files = await readdir(dir)
  return files
    .flatMap((file) => {
      const match = MIGRATION_FILE.exec(file)
      return match?.[1] !== undefined && match[2] !== undefined
        ? [{ version: match[1], name: match[2], path: join(dir, file) }]
        : []
    })
    .sort((a, b) => compareVersions(a.version, b.version))
}

function compareVersions(a: string, b: string): number {
  const byValue = BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0
  return byValue !== 0 ? byValue : a.localeCompare(b)
}

export type MigrationReport = { applied: string[]; alreadyApplied: number }

/**
 * Brings a database to the state of a Supabase project with every migration applied: first the
 * fresh-project baseline (bootstrap.sql, idempotent), then each migration not yet recorded in
 * supabase_migrations.schema_migrations, each in its own transaction and recorded in it, so a
 * failing migration leaves nothing half-applied and is retried on the next start.
 */
export async function migrate(db: Database): Promise<MigrationReport> {
  const bootstrap = await readFile(BOOTSTRAP_SQL, 'utf8')
  await db.transaction(async (tx) => {
    // Serialises concurrent starts against one PostgreSQL database (per-database lock).
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', ['supabase_migrations'])
    await tx.exec(bootstrap)
  })

  const migrations = await listMigrations()
  const applied: string[] = []
  let alreadyApplied = 0
  for (const migration of migrations) {
    const script = await readFile(migration.path, 'utf8')
    const didApply = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', ['supabase_migrations'])
      const done = await tx.query(
        'select 1 from supabase_migrations.schema_migrations where version = $1',
        [migration.version],
      )
      if (done.length > 0) return false
      // Migrations run as `postgres`, as the Supabase CLI runs them: objects get that owner.
      await tx.exec('set local role postgres')
      await tx.exec(script)
      await tx.exec('reset role')
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
        [migration.version, migration.name, splitSqlStatements(script)],
      )
      return true
    })
    if (didApply) applied.push(`${migration.version}_${migration.name}`)
    else alreadyApplied += 1
  }
  return { applied, alreadyApplied }
}
