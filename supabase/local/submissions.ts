import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { dataDirHolder, lockDataDir } from './data-dir-lock'
import type { Database } from './database'
import { backendDirFromEnv, ConfigError, dbPortFromEnv } from './env-config'
import { dataDirIn, wireUrl } from './paths'
import { openPgliteDatabase } from './pglite-database'
import { openPostgresDatabase } from './postgres-database'
import { formatSubmissionsTable, readLatestSubmissions } from './submissions-table'

/**
 * `npm run submissions [-- --limit N]`: prints the latest contact submissions.
 * Reads DATABASE_URL when set; otherwise the running stand-in through its wire port (an embedded
 * database can be open in one process only); otherwise the embedded data directory directly.
 */

const USAGE = 'Usage: npm run submissions [-- --limit N]   (N from 1 to 1000, default 20)'

function parseLimit(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: { limit: { type: 'string', short: 'n' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const limit = values.limit === undefined ? 20 : Number(values.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new ConfigError(`--limit must be a whole number from 1 to 1000. ${USAGE}`)
  return limit
}

async function openSource(): Promise<{ db: Database; label: string }> {
  const databaseUrl = process.env.DATABASE_URL?.trim()
  if (databaseUrl) return { db: await openPostgresDatabase(databaseUrl), label: 'DATABASE_URL' }

  const port = dbPortFromEnv(process.env)
  if (port !== null) {
    const url = wireUrl(port)
    try {
      return { db: await openPostgresDatabase(url), label: `the running local backend (${url})` }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw error
    }
  }

  const dataDir = dataDirIn(backendDirFromEnv(process.env))
  if (!existsSync(dataDir)) {
    throw new ConfigError(
      `No local database yet at ${dataDir}. Start it with \`npm run backend\` and send the form once.`,
    )
  }
  const holder = await dataDirHolder(dataDir)
  if (holder !== null) {
    throw new ConfigError(
      `The local backend (process ${holder}) holds ${dataDir} but serves no wire port to read it through. ` +
        'Restart it with LOCAL_DB_PORT set, or stop it and run this again.',
    )
  }
  // Held while reading, so a backend started meanwhile refuses the directory instead of sharing it.
  const lock = await lockDataDir(dataDir)
  try {
    const db = await openPgliteDatabase(dataDir)
    const close = async () => {
      await db.close()
      await lock.release()
    }
    return { db: { ...db, close }, label: dataDir }
  } catch (error) {
    await lock.release()
    throw error
  }
}

async function main(): Promise<void> {
  const limit = parseLimit(process.argv.slice(2))
  const { db, label } = await openSource()
  try {
    const { rows, total } = await readLatestSubmissions(db, limit)
    console.log(`Reading ${label}\n`)
    console.log(formatSubmissionsTable(rows, total))
  } finally {
    await db.close()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
})
