import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { wireUrl } from './paths'
import type { PgliteDatabase } from './pglite-database'

/**
 * Serves the embedded database over the PostgreSQL wire protocol, where `supabase start` serves
 * its database (127.0.0.1:54322), so staff use psql or any client on it. PGlite has one session,
 * shared by every connection: session settings made in one psql (SET …) are seen by the others.
 */
export type WireServer = { port: number; url: string; stop(): Promise<void> }

/** Few connections: it is one shared session anyway, multiplexed statement by statement. */
const MAX_CONNECTIONS = 8

export async function startWireServer(db: PgliteDatabase, port: number): Promise<WireServer> {
  const server = new PGLiteSocketServer({
    db: db.wireView,
    host: '127.0.0.1',
    port,
    maxConnections: MAX_CONNECTIONS,
  })
  await server.start()
  // Known after listening (port 0 asks the system for a free one).
  const boundPort = Number(server.getServerConn().split(':').pop())
  return {
    port: boundPort,
    url: wireUrl(boundPort),
    stop: () => server.stop(),
  }
}
