import { mkdir, open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import pg from 'pg'
import type { Socket } from 'node:net'
import { LOCAL_DB_PASSWORD, wireUrl } from './paths'
import { authenticate, fatal } from './db/wire-auth'

/**
 * The one database seam: the embedded PGlite (default) or a real PostgreSQL (DATABASE_URL). The
 * API, the migrator, the timers and the tests never care which one they talk to.
 */

export type Row = Record<string, unknown>

export interface Queryable {
  /** One statement, with $1… parameters. */
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<R[]>
  /** A script of one or more statements, without parameters (migrations, bootstrap). */
  exec(sql: string): Promise<void>
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Committed if `fn` resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /** Calls `onPayload` for each notification on `channel`, for the life of the database. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<void>
  /** Proves the database can still write; for PGlite also reopens it after a storage fault. */
  checkStorage(): Promise<void>
  close(): Promise<void>
}

/** The fields PostgreSQL reports for an error, as both drivers expose them. */
export type PgError = { code: string; message: string; detail: string | null; hint: string | null }

export function asPgError(error: unknown): PgError | null {
  if (typeof error !== 'object' || error === null) return null
  const { code, message, detail, hint } = error as Record<string, unknown>
  // SQLSTATEs are five characters; Node's system errors (ECONNREFUSED…) are not database errors.
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || typeof message !== 'string') {
    return null
  }
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)
  return { code, message, detail: text(detail), hint: text(hint) }
}

/**
 * The data folder cannot be written (permissions, full disk, I/O error). PostgreSQL reports a
 * file it cannot create with EACCES as 42501, the same code as a missing grant, so the message
 * decides: answered 503 (try again later), never 401 (which the site reads as a refusal).
 */
export class StorageFaultError extends Error {
  constructor(reason: string) {
    super(`The database cannot write to its data folder: ${reason}`)
    this.name = 'StorageFaultError'
  }
}

function storageFault(error: unknown): StorageFaultError | null {
  if (error instanceof StorageFaultError) return error
  const pgError = asPgError(error)
  if (pgError) {
    const fileError =
      /^could not (create|open|write|extend|fsync|read|rename|remove|truncate)\b.*(file|directory)/
    return /^(58|53100)/.test(pgError.code) || fileError.test(pgError.message)
      ? new StorageFaultError(pgError.message)
      : null
  }
  // PGlite's file system layer throws errno errors of its own (ErrnoError) on a failing disk.
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown }
  return typeof errno === 'number' || code === 'EACCES' || code === 'ENOSPC' || code === 'EROFS'
    ? new StorageFaultError(String((error as Error).message ?? code))
    : null
}

/** Callers run one at a time, in arrival order. */
function serialized() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const result = tail.then(fn)
    tail = result.catch(() => {})
    return result
  }
}

type Run = (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>

/** `execScript` runs several statements at once (PGlite needs its own call for that). */
function wrap(run: Run, execScript: (sql: string) => Promise<unknown> = run): Queryable {
  return {
    query: async <R extends Row>(sql: string, params?: readonly unknown[]) =>
      (await run(sql, params ? [...params] : undefined)).rows as R[],
    exec: async (sql: string) => {
      await execScript(sql)
    },
  }
}

export type PgliteOptions = {
  /** Session settings the backend re-applies after each reset (its instance id). */
  sessionSettings?: Record<string, string>
}

export type PgliteDatabase = Database & {
  readonly kind: 'pglite'
  /** Serves this database over the PostgreSQL wire protocol on 127.0.0.1 (port 0: any free one). */
  serveWire(port: number): Promise<{ port: number; url: string; stop(): Promise<void> }>
}

/** A wire client's open transaction may hold PGlite's single session this long while the API waits. */
export const WIRE_TRANSACTION_GRACE_MS = 2_000

/**
 * PGlite is one single-user PostgreSQL backend: psql on the wire port and the API share its one
 * session. So that no psql session can change what the API runs:
 * - every turn of the backend starts from a reset session (`SET SESSION AUTHORIZATION postgres;
 *   RESET ALL`), so a `SET default_transaction_read_only = on` in psql lasts until the next request;
 * - a psql transaction left open while the API waits is rolled back after a grace period and its
 *   connection closed with PostgreSQL's idle-in-transaction error (25P03), so inserts never hang;
 * - after a storage fault PGlite's file layer stays broken ("File exists"), so it is reopened from
 *   disk once the folder can be written again; nothing committed is lost.
 */
export async function openPgliteDatabase(
  dataDir: string | 'memory',
  options: PgliteOptions = {},
): Promise<PgliteDatabase> {
  const create = () =>
    PGlite.create(dataDir === 'memory' ? 'memory://' : dataDir, { extensions: { pgcrypto } })
  if (dataDir !== 'memory') await mkdir(dataDir, { recursive: true })
  let pglite = await create()
  let faulted: StorageFaultError | null = null
  let ownTurn = false
  let kickWireTransaction: (() => void) | null = null
  /** The wire client a message came from, and its role (the wire port knows both). */
  let clientOf: ((message: Uint8Array) => { role: string | null; socket: Socket | null }) | null =
    null
  /** Who the shared session is now: 'postgres' after the API's reset, null after a startup. */
  let sessionRole: string | null = 'postgres'
  const listeners: [string, (payload: string) => void][] = []
  const turn = serialized()
  const reset = () =>
    pglite.exec(
      // Named, not DEFAULT: in PGlite `SET SESSION AUTHORIZATION DEFAULT` (and RESET) keep the
      // role a wire client switched to, so the API would go on as that role.
      'set session authorization postgres; reset all;' +
        Object.entries(options.sessionSettings ?? {})
          .map(([name, value]) => `set ${name} = '${value.replace(/'/g, "''")}';`)
          .join(''),
    )

  async function takeTurn<T>(fn: (db: PGlite) => Promise<T>): Promise<T> {
    if (faulted) await reopenIfWritable()
    const started = Date.now()
    for (;;) {
      const outcome = await turn(async () => {
        if (pglite.isInTransaction()) {
          if (Date.now() - started < WIRE_TRANSACTION_GRACE_MS) return null
          await pglite.exec('rollback')
          kickWireTransaction?.()
        }
        ownTurn = true
        try {
          await reset()
          sessionRole = 'postgres'
          return { value: await fn(pglite) }
        } catch (error) {
          const fault = storageFault(error)
          // An in-memory database has no folder to recover: reopening it would empty it.
          if (fault && dataDir !== 'memory') faulted = fault
          throw fault ?? error
        } finally {
          ownTurn = false
        }
      })
      if (outcome) return outcome.value
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  async function probeDataDir(): Promise<void> {
    if (dataDir === 'memory') return
    const probe = join(dataDir, `.write-probe-${process.pid}`)
    try {
      const file = await open(probe, 'w')
      await file.writeFile('probe')
      await file.sync()
      await file.close()
      await rm(probe)
    } catch (error) {
      throw new StorageFaultError((error as Error).message)
    }
  }

  let reopening: Promise<void> | null = null
  async function reopenIfWritable(): Promise<void> {
    reopening ??= (async () => {
      try {
        await probeDataDir()
        await turn(async () => {
          if (!faulted) return
          // Closing may hang on a broken instance: it is abandoned, not awaited forever.
          await Promise.race([pglite.close(), new Promise((resolve) => setTimeout(resolve, 2_000))])
          pglite = await create()
          for (const [channel, onPayload] of listeners) await pglite.listen(channel, onPayload)
          faulted = null
        })
      } finally {
        reopening = null
      }
    })()
    await reopening
  }

  // What the socket server sees: its statements take turns with the backend's, and a transaction
  // of the backend is never mistaken for one of a wire client (it would wait for that client).
  // Each wire message runs as its client's role: the session is switched (SET SESSION
  // AUTHORIZATION) whenever the last statement ran for someone else, and a client whose role
  // cannot be entered is disconnected rather than served as superuser.
  type RawStreamOptions = { onRawData: (data: Uint8Array) => void }
  async function asClientRole(message: Uint8Array, options: RawStreamOptions): Promise<void> {
    const isStartup = message.length >= 8 && Buffer.from(message).readInt32BE(4) === 196608
    const client = clientOf?.(message)
    const role = client?.role ?? null
    if (!isStartup && role !== sessionRole) {
      const output: Uint8Array[] = []
      if (role !== null)
        await pglite.execProtocolRawStream(
          simpleQuery(`set session authorization ${quoteIdent(role)}`),
          {
            onRawData: (data) => output.push(data),
          },
        )
      if (role === null || !completedWithoutError(Buffer.concat(output))) {
        sessionRole = null
        options.onRawData(
          fatal('28000', `the session could not be switched to role "${role ?? ''}"`),
        )
        client?.socket?.end()
        throw new WireClientRefused()
      }
      sessionRole = role
    }
    await pglite.execProtocolRawStream(message, options)
    // PGlite may reset the session for a startup packet: the next message switches again.
    if (isStartup) sessionRole = null
  }

  const wireView = new Proxy({} as PGlite, {
    get(_target, property) {
      if (property === 'runExclusive')
        return <T>(fn: () => Promise<T>) =>
          turn(() => pglite.runExclusive(fn)).catch((error: unknown) => {
            // Its connection is closed below; the queue goes on with the other clients.
            if (error instanceof WireClientRefused) return 0 as T
            throw error
          })
      if (property === 'execProtocolRawStream') return asClientRole
      if (property === 'isInTransaction') return () => !ownTurn && pglite.isInTransaction()
      const value: unknown = Reflect.get(pglite, property, pglite)
      return typeof value === 'function' ? value.bind(pglite) : value
    },
  })

  return {
    kind: 'pglite',
    query: (sql, params) =>
      takeTurn(async (db) => (await db.query(sql, params ? [...params] : undefined)).rows as never),
    exec: (sql) => takeTurn(async (db) => void (await db.exec(sql))),
    transaction: (fn) =>
      takeTurn((db) =>
        db.transaction((tx: Transaction) => fn(wrap(tx.query.bind(tx), tx.exec.bind(tx)))),
      ),
    async listen(channel, onPayload) {
      listeners.push([channel, onPayload])
      await takeTurn((db) => db.listen(channel, onPayload))
    },
    async checkStorage() {
      if (faulted) await reopenIfWritable()
      else
        await probeDataDir().catch((error: StorageFaultError) => Promise.reject((faulted = error)))
      await takeTurn((db) => db.query('select 1'))
    },
    async serveWire(port) {
      // The documented local password (as `supabase start`'s), set again at each start.
      await takeTurn((db) => db.exec(`alter role postgres password '${LOCAL_DB_PASSWORD}'`))
      const [current] = (
        await takeTurn((db) => db.query<{ name: string }>('select current_database() as name'))
      ).rows
      const server = new PGLiteSocketServer({
        db: wireView,
        host: '127.0.0.1',
        port,
        maxConnections: 8,
      })
      await server.start()
      const internals = server as unknown as SocketServerInternals
      const roles = new WeakMap<Socket, string>()
      const handlerOf = new WeakMap<Uint8Array, number>()
      const enqueue = internals.queryQueue.enqueue.bind(internals.queryQueue)
      internals.queryQueue.enqueue = (handlerId, message, onData) => {
        handlerOf.set(message, handlerId)
        return enqueue(handlerId, message, onData)
      }
      clientOf = (message) => {
        const id = handlerOf.get(message)
        const socket = [...internals.handlers].find((found) => found.handlerId === id)?.socket
        return { role: (socket && roles.get(socket)) ?? null, socket: socket ?? null }
      }
      // Every connection authenticates before pglite-socket (which would let anyone in) sees it.
      internals.server.removeAllListeners('connection')
      internals.server.on('connection', (socket: Socket) => {
        void authenticate(socket, {
          database: current?.name ?? 'postgres',
          lookup: async (user) => {
            const [role] = (
              await takeTurn((db) =>
                db.query<{ canLogin: boolean; verifier: string | null }>(
                  'select rolcanlogin as "canLogin", rolpassword as verifier from pg_authid where rolname = $1',
                  [user],
                ),
              )
            ).rows
            return role ?? null
          },
        }).then((client) => {
          if (!client) return
          roles.set(socket, client.user)
          socket.pause()
          socket.unshift(Buffer.concat([client.startup, client.rest]))
          void internals.handleConnection(socket)
          socket.resume()
        })
      })
      kickWireTransaction = () => closeTransactionHolder(server)
      const bound = Number(server.getServerConn().split(':').pop())
      return { port: bound, url: wireUrl(bound), stop: () => server.stop() }
    },
    async close() {
      await turn(() => pglite.close())
    },
  }
}

/** What the wire port reads of pglite-socket 0.2's internals (its queue, handlers and listener). */
type SocketServerInternals = {
  server: import('node:net').Server
  handleConnection(socket: Socket): Promise<void>
  queryQueue: {
    enqueue(
      handlerId: number,
      message: Uint8Array,
      onData: (data: Uint8Array) => void,
    ): Promise<number>
  }
  handlers: Set<{ handlerId: number; socket: Socket | null }>
}

/** A wire client whose statements may not run (its role could not be entered): disconnected. */
class WireClientRefused extends Error {}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A simple-protocol Query message. */
function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`)
  const header = Buffer.alloc(5)
  header.write('Q')
  header.writeInt32BE(text.length + 4, 1)
  return new Uint8Array(Buffer.concat([header, text]))
}

/** Whether a simple query's answer has its CommandComplete and no ErrorResponse. */
function completedWithoutError(answer: Buffer): boolean {
  let completed = false
  for (let offset = 0; offset + 5 <= answer.length; offset += 1 + answer.readInt32BE(offset + 1)) {
    const type = String.fromCharCode(answer[offset] as number)
    if (type === 'E') return false
    if (type === 'C') completed = true
  }
  return completed
}

/**
 * Closes the wire connection whose transaction was just rolled back, telling its client why in a
 * PostgreSQL ErrorResponse, so psql reports the lost transaction instead of carrying on in
 * autocommit. Reads pglite-socket 0.2's internals (which connection holds the transaction).
 */
function closeTransactionHolder(server: PGLiteSocketServer): void {
  const internals = server as unknown as {
    queryQueue: { lastHandlerId: number | null; processQueue(): Promise<void> }
    handlers: Set<{ handlerId: number; socket: import('node:net').Socket | null }>
  }
  const holder = [...internals.handlers].find(
    (handler) => handler.handlerId === internals.queryQueue.lastHandlerId,
  )
  internals.queryQueue.lastHandlerId = null
  holder?.socket?.end(
    fatal(
      '25P03',
      'terminating connection due to idle-in-transaction timeout (the local API needed the database)',
    ),
  )
  // Statements of other clients queued behind that transaction may go now.
  setImmediate(() => void internals.queryQueue.processQueue())
}

/** A real PostgreSQL (a developer's server, or the throwaway test databases). */
export async function openPostgresDatabase(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 5 })
  // Fail now, with the driver's reason, rather than on the first request.
  ;(await pool.connect()).release()
  // An idle client whose server goes away emits 'error'; without a listener that would crash.
  pool.on('error', () => {})
  const listening: pg.Client[] = []
  const rethrow = (error: unknown) => {
    throw storageFault(error) ?? error
  }

  const database: Database = {
    kind: 'postgres',
    ...wrap((sql, params) => pool.query(sql, params).catch(rethrow)),
    async transaction(fn) {
      const client = await pool.connect()
      let broken = false
      try {
        await client.query('begin')
        const value = await fn(wrap((sql, params) => client.query(sql, params)))
        await client.query('commit')
        return value
      } catch (error) {
        // A connection that cannot even roll back is discarded rather than reused.
        await client.query('rollback').catch(() => (broken = true))
        return rethrow(error)
      } finally {
        client.release(broken)
      }
    },
    async listen(channel, onPayload) {
      const client = new pg.Client({ connectionString })
      await client.connect()
      client.on('error', () => {})
      client.on('notification', (message) => {
        if (message.channel === channel) onPayload(message.payload ?? '')
      })
      await client.query(`listen "${channel.replace(/"/g, '""')}"`)
      listening.push(client)
    },
    async checkStorage() {
      // A write that is rolled back: the server must be able to start a writing transaction.
      await database.transaction((tx) => tx.query('select txid_current()'))
    },
    async close() {
      await Promise.all(listening.map((client) => client.end()))
      await pool.end()
    },
  }
  return database
}
