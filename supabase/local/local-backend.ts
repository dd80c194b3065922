import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import lockfile from 'proper-lockfile'
import { openPgliteDatabase, openPostgresDatabase, type Database } from './database'
import { ensureDevIdentity } from './dev-identity'
import { LOCAL_PORTS } from './ports'
import { INSTANCE_SETTING, LOCK_STALE_MS, type ConnectionInfo } from './local-connection'
import { migrate, type MigrationReport } from './migrations'
import { createOwnerOnlyFiles, ownerOnly } from './owner-only'
import { backendPaths } from './paths'
import type { AuthSettings } from './auth/auth-api'
import { createHttpApi } from './http-api'
import { createGateway, DEMO_JWT_SECRET, signApiKeys } from './gateway'
import { createStorageApi } from './storage/storage-api'
import { createAttachmentRemover } from './storage/attachment-removal'
import { createAlertForwarder } from './staff-alerts'

/**
 * The local stand-in for the hosted Supabase project: the REST insert on the gateway's port, over
 * the embedded PGlite or a real PostgreSQL, with the project's migrations applied, and the jobs
 * Supabase runs with pg_cron and pg_net (purge, overdue alerts, staff alert webhook).
 */

export const DEFAULT_API_PORT = LOCAL_PORTS.api.fallback
export const DEFAULT_DB_PORT = LOCAL_PORTS.db.fallback
const HOUR = 60 * 60 * 1000

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

export class BackendInUseError extends Error {}

/** Runs `sql` now and every `everyMs`, if the function it calls exists (a migration brings it). */
function schedule(db: Database, procedure: string, everyMs: number, log: (line: string) => void) {
  const run = async () => {
    try {
      const [found] = await db.query<{ ok: boolean }>(
        'select to_regprocedure($1) is not null as ok',
        [`${procedure}(timestamptz)`],
      )
      if (!found?.ok) return
      const [result] = await db.query<{ n: number }>(`select ${procedure}() as n`)
      if (result?.n) log(`${procedure}(): ${result.n}`)
    } catch (error) {
      log(`${procedure}() failed: ${(error as Error).message}`)
    }
  }
  const timer = setInterval(run, everyMs)
  timer.unref()
  return { first: run(), stop: () => clearInterval(timer) }
}

export async function startLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const log = options.log ?? (() => {})
  const cleanups: (() => Promise<unknown>)[] = []
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
  }
  try {
    const inMemory = options.backendDir === 'memory'
    const paths = backendPaths(inMemory ? undefined : options.backendDir)
    const instanceId = randomUUID()
    const ownEntries = [
      paths.dataDir,
      paths.lockFile,
      paths.connectionFile,
      paths.identityFile,
      paths.storageDir,
    ]
    let db: Database
    let dbUrl: string | null = null
    if (options.databaseUrl) {
      db = await openPostgresDatabase(options.databaseUrl)
      cleanups.push(() => db.close())
    } else {
      if (!inMemory) {
        // Owner-only, whatever the umask: new files by the umask, old ones (an older version's
        // folder) by a sweep now, and whatever a worker thread could not cover by one at stop.
        createOwnerOnlyFiles()
        await mkdir(paths.dir, { recursive: true, mode: 0o700 })
        await ownerOnly(paths.dir, ownEntries)
        cleanups.push(() => ownerOnly(paths.dir, ownEntries))
        // An exclusive lock (an atomic mkdir, refreshed every 5 s) held for the process's life. It
        // goes stale 30 s after a kill -9; PGlite's start can block the event loop for many
        // seconds on a busy machine, so a shorter threshold would hand the folder to a second one.
        const release = await lockfile
          .lock(paths.dir, {
            lockfilePath: paths.lockFile,
            stale: LOCK_STALE_MS,
            update: 5_000,
            retries: {
              retries: Math.ceil((options.lockWaitMs ?? 0) / 1000),
              minTimeout: 1000,
              maxTimeout: 1000,
            },
            onCompromised: (error) =>
              (options.onLockLost ?? ((e) => log(`lock lost: ${e.message}`)))(error),
          })
          .catch((error: NodeJS.ErrnoException) => {
            if (error.code !== 'ELOCKED') throw error
            throw new BackendInUseError(
              `Another local backend is using ${paths.dir} (lock ${paths.lockFile}). Stop it first; ` +
                'the lock of a backend that was killed expires within 30 seconds.',
            )
          })
        cleanups.push(release)
      }
      const pglite = await openPgliteDatabase(inMemory ? 'memory' : paths.dataDir, {
        sessionSettings: { [INSTANCE_SETTING]: instanceId },
      })
      db = pglite
      cleanups.push(() => db.close())
      if (options.dbPort !== null) {
        const wire = await pglite.serveWire(options.dbPort ?? DEFAULT_DB_PORT)
        dbUrl = wire.url
        cleanups.push(() => wire.stop())
      }
    }
    const migrations = await migrate(db)
    if (!inMemory && !options.databaseUrl) await ownerOnly(paths.dir, ownEntries)

    if (!inMemory && !options.databaseUrl) {
      const { recipient } = await ensureDevIdentity(paths.dir)
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

    const forward = createAlertForwarder({
      webhookUrl: options.staffAlertWebhookUrl,
      secret: options.staffAlertWebhookSecret,
      inboxUrl: options.inboxUrl,
      log,
    })
    await db.listen('staff_alert', (payload) => void forward(payload))
    // Supabase runs these with pg_cron; PGlite has none, so the backend does, at start and after.
    const jobs = [
      schedule(db, 'private.purge_contact_submissions', HOUR, log),
      schedule(db, 'private.alert_overdue_submissions', HOUR / 4, log),
    ]
    cleanups.push(async () => jobs.forEach((job) => job.stop()))
    await Promise.all(jobs.map((job) => job.first))

    const keys = await signApiKeys(options.jwtSecret ?? DEMO_JWT_SECRET)
    let storageDir = options.storageDir
    if (!storageDir) {
      if (inMemory || (options.databaseUrl && options.backendDir === undefined)) {
        const temporary = await mkdtemp(join(tmpdir(), 'local-backend-storage-'))
        cleanups.push(() => rm(temporary, { recursive: true, force: true }))
        storageDir = temporary
      } else storageDir = paths.storageDir
    }
    await mkdir(storageDir, { recursive: true, mode: 0o700 })
    // Standard uploads cut by a stop never reached a row: their partial files go.
    await rm(join(storageDir, 'incoming'), { recursive: true, force: true })
    const storage = createStorageApi({
      db,
      gateway: createGateway(options.jwtSecret ?? DEMO_JWT_SECRET),
      dir: storageDir,
      log,
    })
    const app = createHttpApi({
      db,
      jwtSecret: options.jwtSecret ?? DEMO_JWT_SECRET,
      log,
      authSettings: options.authSettings,
      restUpstream: options.restUpstream,
      storage: storage.app,
    })
    const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const started = serve(
        { fetch: app.fetch, port: options.apiPort ?? DEFAULT_API_PORT, hostname: '127.0.0.1' },
        () => resolve(started),
      )
      started.once('error', reject)
    })
    cleanups.push(
      () =>
        new Promise((resolve) => {
          server.close(resolve)
          ;(server as import('node:http').Server).closeAllConnections?.()
        }),
    )
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    // Objects queued for removal (purged inquiries, day-old orphans) go through the Storage API
    // with the service role, as the Edge Function does on Supabase (supabase/README.md).
    const remover = createAttachmentRemover({ url, serviceRoleKey: keys.serviceRoleKey, log })
    await db.listen('attachment_removal', () => remover.request())
    const storageJobs = setInterval(() => {
      remover.request()
      void storage.cleanUpExpiredUploads().catch(() => {})
    }, HOUR)
    storageJobs.unref()
    cleanups.push(async () => {
      clearInterval(storageJobs)
      await remover.idle()
    })
    remover.request()

    if (!inMemory && !options.databaseUrl) {
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
      removeQueuedAttachments: () => remover.run(),
      close: closeAll,
    }
  } catch (error) {
    await closeAll()
    throw error
  }
}
