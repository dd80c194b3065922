import type { Socket } from 'node:net'
import type { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { LOCAL_DB_PASSWORD, wireUrl } from '../paths'
import type { PgliteSession } from './pglite-session'
import { authenticate, fatal } from './wire-auth'

/**
 * The embedded database on the PostgreSQL wire protocol (127.0.0.1), for psql and the staff tools:
 * pglite-socket's server, with PostgreSQL's password login in front (wire-auth.ts), each client's
 * statements run as its own role, and its turns taken between the API's (pglite-session.ts).
 * Reads pglite-socket 0.2's internals (its queue, handlers and listener).
 */

export type WireServer = { port: number; url: string; stop(): Promise<void> }

type SocketServerInternals = {
  server: import('node:net').Server
  handleConnection(socket: Socket): Promise<void>
  queryQueue: {
    enqueue(
      handlerId: number,
      message: Uint8Array,
      onData: (data: Uint8Array) => void,
    ): Promise<number>
    lastHandlerId: number | null
    processQueue(): Promise<void>
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
 * autocommit.
 */
function closeTransactionHolder(internals: SocketServerInternals): void {
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

type RawStreamOptions = { onRawData: (data: Uint8Array) => void }
type ClientOf = (message: Uint8Array) => { role: string | null; socket: Socket | null }

/**
 * What the socket server sees of PGlite: its statements take turns with the API's, a transaction
 * of the API is never mistaken for one of a wire client (it would wait for that client), and each
 * wire message runs as its client's role: the session is switched (SET SESSION AUTHORIZATION)
 * whenever the last statement ran for someone else, and a client whose role cannot be entered is
 * disconnected rather than served as superuser.
 */
function wireView(session: PgliteSession, clientOf: () => ClientOf | null): PGlite {
  const { state } = session
  async function asClientRole(message: Uint8Array, options: RawStreamOptions): Promise<void> {
    const isStartup = message.length >= 8 && Buffer.from(message).readInt32BE(4) === 196608
    const client = clientOf()?.(message)
    const role = client?.role ?? null
    if (!isStartup && role !== state.sessionRole) {
      const output: Uint8Array[] = []
      if (role !== null)
        await state.pglite.execProtocolRawStream(
          simpleQuery(`set session authorization ${quoteIdent(role)}`),
          { onRawData: (data) => output.push(data) },
        )
      if (role === null || !completedWithoutError(Buffer.concat(output))) {
        state.sessionRole = null
        options.onRawData(
          fatal('28000', `the session could not be switched to role "${role ?? ''}"`),
        )
        client?.socket?.end()
        throw new WireClientRefused()
      }
      state.sessionRole = role
    }
    await state.pglite.execProtocolRawStream(message, options)
    // PGlite may reset the session for a startup packet: the next message switches again.
    if (isStartup) state.sessionRole = null
  }
  return new Proxy({} as PGlite, {
    get(_target, property) {
      if (property === 'runExclusive')
        return <T>(fn: () => Promise<T>) =>
          session
            .turn(() => state.pglite.runExclusive(fn))
            .catch((error: unknown) => {
              // Its connection is closed; the queue goes on with the other clients.
              if (error instanceof WireClientRefused) return 0 as T
              throw error
            })
      if (property === 'execProtocolRawStream') return asClientRole
      if (property === 'isInTransaction')
        return () => !state.ownTurn && state.pglite.isInTransaction()
      const value: unknown = Reflect.get(state.pglite, property, state.pglite)
      return typeof value === 'function' ? value.bind(state.pglite) : value
    },
  })
}

/** Serves the session over the wire protocol on 127.0.0.1 (port 0: any free one). */
export async function serveWire(session: PgliteSession, port: number): Promise<WireServer> {
  const { takeTurn } = session
  // The documented local password (as `supabase start`'s), set again at each start.
  await takeTurn((db) => db.exec(`alter role postgres password '${LOCAL_DB_PASSWORD}'`))
  const [current] = (
    await takeTurn((db) => db.query<{ name: string }>('select current_database() as name'))
  ).rows
  let clientOf: ClientOf | null = null
  const server = new PGLiteSocketServer({
    db: wireView(session, () => clientOf),
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
  session.state.kickWireTransaction = () => closeTransactionHolder(internals)
  const bound = Number(server.getServerConn().split(':').pop())
  return { port: bound, url: wireUrl(bound), stop: () => server.stop() }
}
