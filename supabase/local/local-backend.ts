import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import type { AuthSettings } from './auth/auth-input'
import type { Database } from './database'
import { openPgliteDatabase } from './db/pglite'
import { openPostgresDatabase } from './db/postgres'
import { ensureDevIdentity } from './dev-identity'
import { lockFolder } from './folder-lock'
import { createGateway, DEMO_JWT_SECRET, signApiKeys } from './gateway'
import { createHttpApi } from './http-api'
import { startDatabaseJobs } from './jobs'
import { INSTANCE_SETTING, type ConnectionInfo } from './local-connection'
import { migrate, type MigrationReport } from './migrations'
import { createOwnerOnlyFiles, ownerOnly } from './owner-only'
import { backendPaths } from './paths'
import { LOCAL_PORTS } from './ports'
import { listenForStaffAlerts } from './staff-alerts'
import { startStorageJobs } from './storage/attachment-removal'
import { createStorageApi } from './storage/storage-api'

/**
 * The local stand-in for the hosted Supabase project, composed: the folder and its lock, the
 * database (embedded PGlite or a real PostgreSQL) with the project's migrations, the development
 * key, the jobs Supabase runs with pg_cron and pg_net (jobs.ts, staff-alerts.ts, Storage's removal
 * queue), and the HTTP API (REST, Auth, Storage behind the gateway).
 */

export const DEFAULT_API_PORT = LOCAL_PORTS.api.fallback
export const DEFAULT_DB_PORT = LOCAL_PORTS.db.fallback

export type LocalBackendOptions = {
  /** HTTP port; 0 picks a free one. */
  apiPort?: number
  /** Wire-protocol port of the embedded database; 0 picks a free one; null serves none. */
  dbPort?: number | null
  /** State folder (database, lock, dev identity, Storage's files), or 'memory' for a throwaway database. */
  backendDir?: string
  /**
   * Where Storage keeps its files: `<backendDir>/storage` by default; a temporary folder, removed
   * at close, for an in-memory backend or a DATABASE_URL one given no backendDir.
   */
  storageDir?: string
  /** Use this PostgreSQL instead of the embedded database (no wire port, no lock then). */
  databaseUrl?: string
  jwtSecret?: string
  /** Auth's settings where they differ from supabase/config.toml's (tests lower rate limits). */
  authSettings?: Partial<AuthSettings>
  /** A real PostgREST on the same database to serve `/rest/v1` behind the gateway (tests). */
  restUpstream?: string
  staffAlertWebhookUrl?: string
  staffAlertWebhookSecret?: string
  /** The staff inbox's address, for the printed alerts' links (`npm start` serves it at :4174). */
  inboxUrl?: string
  /** How long to wait for another backend's lock to be released or go stale (a killed one's). */
  lockWaitMs?: number
  /** The lock was taken away (its folder deleted, or another process broke it): stop writing. */
  onLockLost?: (error: Error) => void
  log?: (line: string) => void
}

export type LocalBackend = {
  url: string
  dbUrl: string | null
  /** The database itself, as superuser: for tests to read and clean rows. */
  db: Database
  anonKey: string
  serviceRoleKey: string
  migrations: MigrationReport
  /** Where Storage keeps its files. */
  storageDir: string
  /** Removes the objects queued for removal now (the listener does it on its own too). */
  removeQueuedAttachments(): Promise<number>
  close(): Promise<void>
}

type Paths = ReturnType<typeof backendPaths>
type Cleanups = (() => Promise<unknown>)[]

/** The database the options name, its folder locked and owner-only, its wire port served. */
async function openDatabase(options: LocalBackendOptions, paths: Paths, cleanups: Cleanups) {
  const log = options.log ?? (() => {})
  if (options.databaseUrl) {
    const db = await openPostgresDatabase(options.databaseUrl)
    cleanups.push(() => db.close())
    return { db, dbUrl: null, instanceId: null }
  }
  const inMemory = options.backendDir === 'memory'
  if (!inMemory) {
    // Owner-only, whatever the umask: new files by the umask, old ones (an older version's
    // folder) by a sweep now, and whatever a worker thread could not cover by one at stop.
    createOwnerOnlyFiles()
    await mkdir(paths.dir, { recursive: true, mode: 0o700 })
    await ownerOnly(paths.dir, ownEntries(paths))
    cleanups.push(() => ownerOnly(paths.dir, ownEntries(paths)))
    const release = await lockFolder(paths, {
      waitMs: options.lockWaitMs ?? 0,
      onLost: options.onLockLost ?? ((error) => log(`lock lost: ${error.message}`)),
    })
    cleanups.push(release)
  }
  const instanceId = randomUUID()
  const pglite = await openPgliteDatabase(inMemory ? 'memory' : paths.dataDir, {
    sessionSettings: { [INSTANCE_SETTING]: instanceId },
  })
  cleanups.push(() => pglite.close())
  let dbUrl: string | null = null
  if (options.dbPort !== null) {
    const wire = await pglite.serveWire(options.dbPort ?? DEFAULT_DB_PORT)
    dbUrl = wire.url
    cleanups.push(() => wire.stop())
  }
  return { db: pglite as Database, dbUrl, instanceId: inMemory ? null : instanceId }
}

const ownEntries = (paths: Paths) => [
  paths.dataDir,
  paths.lockFile,
  paths.connectionFile,
  paths.identityFile,
  paths.storageDir,
]

/** The development key's recipient registered, so the build seals to it (dev-identity.ts). */
async function registerDevKey(db: Database, dir: string, log: (line: string) => void) {
  const { recipient } = await ensureDevIdentity(dir)
  const [found] = await db.query<{ ok: boolean }>(
    `select to_regprocedure('private.register_submission_key(text[],text)') is not null as ok`,
  )
  if (found?.ok)
    await db.query(`select private.register_submission_key(array[$1], 'local development')`, [
      recipient,
    ])
  else
    log(
      'warning: private.register_submission_key() is missing; the development key is not registered',
    )
}

/** Storage's folder: the option's, the backend's, or a temporary one removed at close. */
async function storageFolder(options: LocalBackendOptions, paths: Paths, cleanups: Cleanups) {
  let dir = options.storageDir
  if (!dir) {
    const temporary =
      options.backendDir === 'memory' || (options.databaseUrl && options.backendDir === undefined)
    if (temporary) {
      dir = await mkdtemp(join(tmpdir(), 'local-backend-storage-'))
      const made = dir
      cleanups.push(() => rm(made, { recursive: true, force: true }))
    } else dir = paths.storageDir
  }
  await mkdir(dir, { recursive: true, mode: 0o700 })
  return dir
}

async function listen(
  app: { fetch: Parameters<typeof serve>[0]['fetch'] },
  port: number,
  cleanups: Cleanups,
) {
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(started))
    started.once('error', reject)
  })
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(resolve)
        ;(server as import('node:http').Server).closeAllConnections?.()
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export async function startLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const log = options.log ?? (() => {})
  const cleanups: Cleanups = []
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
  }
  try {
    const inFolder = options.backendDir !== 'memory' && !options.databaseUrl
    const paths = backendPaths(options.backendDir === 'memory' ? undefined : options.backendDir)
    const { db, dbUrl, instanceId } = await openDatabase(options, paths, cleanups)
    const migrations = await migrate(db)
    if (inFolder) {
      await ownerOnly(paths.dir, ownEntries(paths))
      await registerDevKey(db, paths.dir, log)
    }
    await listenForStaffAlerts(db, {
      webhookUrl: options.staffAlertWebhookUrl,
      secret: options.staffAlertWebhookSecret,
      inboxUrl: options.inboxUrl,
      log,
    })
    cleanups.push(await startDatabaseJobs(db, log).then((stop) => async () => stop()))

    const jwtSecret = options.jwtSecret ?? DEMO_JWT_SECRET
    const keys = await signApiKeys(jwtSecret)
    const storageDir = await storageFolder(options, paths, cleanups)
    const storage = createStorageApi({
      db,
      gateway: createGateway(jwtSecret),
      dir: storageDir,
      log,
    })
    // Nobody is answered before uploads a stop interrupted are finished or removed.
    await storage.start()
    const app = createHttpApi({
      db,
      jwtSecret,
      log,
      authSettings: options.authSettings,
      restUpstream: options.restUpstream,
      storage: storage.app,
    })
    const url = await listen(app, options.apiPort ?? DEFAULT_API_PORT, cleanups)
    const storageJobs = await startStorageJobs({
      db,
      url,
      serviceRoleKey: keys.serviceRoleKey,
      removeExpiredUploads: storage.removeExpiredUploads,
      log,
    })
    cleanups.push(storageJobs.stop)

    if (inFolder && instanceId) {
      // Staff tools find this checkout's backend here, whatever ports it was given. Only a backend
      // that holds its folder's lock says so: the lock is how they know it is still running.
      const info: ConnectionInfo = { url: dbUrl, apiUrl: url, instanceId, pid: process.pid }
      await writeFile(paths.connectionFile, `${JSON.stringify(info)}\n`, { mode: 0o600 })
      cleanups.push(() => rm(paths.connectionFile, { force: true }))
    }
    return {
      url,
      dbUrl,
      db,
      ...keys,
      migrations,
      storageDir,
      removeQueuedAttachments: storageJobs.removeQueuedAttachments,
      close: closeAll,
    }
  } catch (error) {
    await closeAll()
    throw error
  }
}
