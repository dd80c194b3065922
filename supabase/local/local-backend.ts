import type { AddressInfo } from 'node:net'
import { once } from 'node:events'
import { apiKeysFor, DEMO_JWT_SECRET } from './api-keys'
import { createApiServer } from './api-server'
import { lockDataDir, type DataDirLock } from './data-dir-lock'
import type { Database } from './database'
import { migrate, type MigrationReport } from './migrations'
import { dataDirIn, DEFAULT_BACKEND_DIR } from './paths'
import { openPgliteDatabase } from './pglite-database'
import { openPostgresDatabase } from './postgres-database'
import { loadSchemaCache } from './schema-cache'
import { startWireServer, type WireServer } from './wire-server'

/**
 * The local stand-in for the hosted Supabase project: the REST insert endpoint on the gateway's
 * port, over an embedded PostgreSQL (PGlite) or a real one, with the project's migrations applied.
 * Everything binds 127.0.0.1 only.
 */

export const DEFAULT_API_PORT = 54321
export const DEFAULT_DB_PORT = 54322

export type LocalBackendOptions = {
  /** HTTP port; 0 picks a free one. Default 54321, the Supabase API gateway's local port. */
  apiPort?: number
  /** Wire-protocol port of the embedded database; 0 picks a free one; null serves none.
   * Default 54322. Ignored with `databaseUrl` (that server has its own). */
  dbPort?: number | null
  /** Embedded database directory, or 'memory' for a throwaway one. Default .local-backend/db. */
  dataDir?: string | 'memory'
  /** Use this PostgreSQL instead of the embedded database. */
  databaseUrl?: string
  /** HS256 secret that signs the API keys. Default: the Supabase CLI's local demo secret. */
  jwtSecret?: string
  log?: (line: string) => void
}

export type LocalBackend = {
  /** Base URL for createClient(url, anonKey). */
  url: string
  apiPort: number
  /** Wire-protocol address of the embedded database, when served. */
  dbUrl: string | null
  dbPort: number | null
  /** The database itself, as superuser: for tests to read and clean rows. */
  db: Database
  anonKey: string
  serviceRoleKey: string
  migrations: MigrationReport
  close(): Promise<void>
}

export async function startLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const jwtSecret = options.jwtSecret ?? DEMO_JWT_SECRET
  // Resources opened so far, closed in reverse order by close() or when start-up fails.
  const cleanups: (() => Promise<void>)[] = []
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
  }

  try {
    let db: Database
    let wire: WireServer | null = null
    if (options.databaseUrl) {
      db = await openPostgresDatabase(options.databaseUrl)
      cleanups.push(() => db.close())
    } else {
      const dataDir = options.dataDir ?? dataDirIn(DEFAULT_BACKEND_DIR)
      if (dataDir !== 'memory') {
        const lock: DataDirLock = await lockDataDir(dataDir)
        cleanups.push(() => lock.release())
      }
      const pglite = await openPgliteDatabase(dataDir)
      db = pglite
      cleanups.push(() => pglite.close())
      const dbPort = options.dbPort === undefined ? DEFAULT_DB_PORT : options.dbPort
      if (dbPort !== null) {
        const started = await startWireServer(pglite, dbPort)
        wire = started
        cleanups.push(() => started.stop())
      }
    }

    const migrations = await migrate(db)
    const schemaCache = await loadSchemaCache(db)

    const server = createApiServer({ db, schemaCache, jwtSecret, log: options.log })
    server.listen(options.apiPort ?? DEFAULT_API_PORT, '127.0.0.1')
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error as Error)),
    ])
    cleanups.push(async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    })
    const apiPort = (server.address() as AddressInfo).port

    const keys = apiKeysFor(jwtSecret)
    return {
      url: `http://127.0.0.1:${apiPort}`,
      apiPort,
      dbUrl: wire?.url ?? null,
      dbPort: wire?.port ?? null,
      db,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      migrations,
      close: closeAll,
    }
  } catch (error) {
    await closeAll()
    throw error
  }
}
