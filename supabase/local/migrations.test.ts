import { afterEach, describe, expect, it } from 'vitest'
import type { Database } from './database'
import { openPgliteDatabase } from './db/pglite'
import { listMigrations, migrate, OutdatedSchemaError } from './migrations'

describe('migrate', () => {
  let db: Database | undefined

  afterEach(async () => {
    await db?.close()
    db = undefined
  })

  it('applies every migration once, and nothing on a database that has them all', async () => {
    db = await openPgliteDatabase('memory')
    const migrations = await listMigrations()
    expect((await migrate(db)).applied).toEqual(
      migrations.map((migration) => `${migration.version}_${migration.name}`),
    )
    expect(await migrate(db)).toEqual({ applied: [], alreadyApplied: migrations.length })
  }, 120_000)

  it('refuses a database made by an older schema, saying in a sentence how to reset it', async () => {
    db = await openPgliteDatabase('memory')
    await migrate(db)
    // What a data folder made before the schema was squashed records.
    await db.query(
      `insert into supabase_migrations.schema_migrations (version, name)
       values ('20261122041809', 'create_contact_submissions')`,
    )
    const refused = migrate(db)
    await expect(refused).rejects.toBeInstanceOf(OutdatedSchemaError)
    await expect(refused).rejects.toThrow(
      /^This database was made by an older version of the schema \(its migration 20261122041809 is no longer in supabase\/migrations\): reset it by deleting the backend's data folder .* then start again\.$/,
    )
  }, 120_000)
})
