import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Database } from './database'
import { BOOTSTRAP_SQL, MIGRATIONS_DIR } from './paths'

export type MigrationFile = { version: string; name: string; path: string }
export type MigrationReport = { applied: string[]; alreadyApplied: number }

/** The database holds migrations this checkout no longer has: it was made by an older schema. */
export class OutdatedSchemaError extends Error {
  constructor(readonly versions: readonly string[]) {
    super(
      `This database was made by an older version of the schema (its migration ${versions[0]} is no longer in supabase/migrations): reset it by deleting the backend's data folder (.local-backend/, or LOCAL_BACKEND_DIR) or, with DATABASE_URL, by dropping and creating that database again, then start again.`,
    )
    this.name = 'OutdatedSchemaError'
  }
}

/** Migration files in the order the Supabase CLI applies them: `<version>_<name>.sql`, by version. */
export async function listMigrations(dir: string = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  return (await readdir(dir))
    .flatMap((file) => {
      const [, version, name] = /^([0-9]+)_(.*)\.sql$/.exec(file) ?? []
      return version && name ? [{ version, name, path: join(dir, file) }] : []
    })
    .sort((a, b) =>
      BigInt(a.version) < BigInt(b.version) ? -1 : BigInt(a.version) > BigInt(b.version) ? 1 : 0,
    )
}

/**
 * Brings a database to a Supabase project with every migration applied: the fresh-project baseline
 * (bootstrap.sql, idempotent), then each migration not yet recorded in
 * supabase_migrations.schema_migrations, each in its own transaction, as role `postgres` like the
 * CLI, so a failing migration leaves nothing half-applied and is retried on the next start. A
 * database that records a migration the folder no longer holds was made by an older schema (the
 * migrations change in place until the first deployment): it is refused with OutdatedSchemaError
 * before anything is written to it. `dir` is another folder of migrations (the bench compares
 * schemas).
 */
export async function migrate(
  db: Database,
  dir: string = MIGRATIONS_DIR,
): Promise<MigrationReport> {
  const bootstrap = await readFile(BOOTSTRAP_SQL, 'utf8')
  const migrations = await listMigrations(dir)
  // The advisory lock serialises concurrent starts against one PostgreSQL database.
  const lock = `select pg_advisory_xact_lock(hashtext('supabase_migrations'))`
  await db.transaction(async (tx) => {
    await tx.query(lock)
    const [table] = await tx.query<{ exists: boolean }>(
      `select to_regclass('supabase_migrations.schema_migrations') is not null as exists`,
    )
    const recorded = table?.exists
      ? await tx.query<{ version: string }>(
          'select version from supabase_migrations.schema_migrations order by version',
        )
      : []
    const known = new Set(migrations.map((migration) => migration.version))
    const unknown = recorded.map((row) => row.version).filter((version) => !known.has(version))
    if (unknown.length > 0) throw new OutdatedSchemaError(unknown)
    await tx.exec(bootstrap)
  })
  const report: MigrationReport = { applied: [], alreadyApplied: 0 }
  for (const migration of migrations) {
    const script = await readFile(migration.path, 'utf8')
    const applied = await db.transaction(async (tx) => {
      await tx.query(lock)
      const done = await tx.query(
        'select from supabase_migrations.schema_migrations where version = $1',
        [migration.version],
      )
      if (done.length > 0) return false
      await tx.exec(`set local role postgres; ${script}\n;reset role`)
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)',
        [migration.version, migration.name],
      )
      return true
    })
    if (applied) report.applied.push(`${migration.version}_${migration.name}`)
    else report.alreadyApplied += 1
  }
  return report
}
