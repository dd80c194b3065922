import type { Transaction } from '@electric-sql/pglite'
import { wrap, type Database, type Queryable } from '../database'
import { openPgliteSession } from './pglite-session'
import { serveWire, type WireServer } from './wire'

/**
 * The embedded database: PGlite (PostgreSQL in WebAssembly) in the backend's folder, or in memory,
 * with its single session shared by the API and the wire port (pglite-session.ts, wire.ts).
 */

export type PgliteOptions = {
  /** Session settings the backend re-applies after each reset (its instance id). */
  sessionSettings?: Record<string, string>
}

export type PgliteDatabase = Database & {
  readonly kind: 'pglite'
  /** Serves this database over the PostgreSQL wire protocol on 127.0.0.1 (port 0: any free one). */
  serveWire(port: number): Promise<WireServer>
}

/** Statements quicker than this are not held to a statement timeout (none is set that short). */
const UNCHECKED_MS = 10

/**
 * PGlite runs no timer, so it never cancels a statement past its `statement_timeout` (the API
 * roles' settings, applied per request as PostgREST applies them). The statement is cancelled
 * after the fact instead: its transaction rolled back with PostgreSQL's 57014, the answer a real
 * PostgreSQL gives, only later than it would.
 */
function heldToStatementTimeout(tx: Queryable): Queryable {
  const timed = async <T>(run: () => Promise<T>): Promise<T> => {
    const started = performance.now()
    const result = await run()
    const elapsed = performance.now() - started
    if (elapsed < UNCHECKED_MS) return result
    const [setting] = await tx.query<{ ms: number }>(
      `select setting::int as ms from pg_catalog.pg_settings where name = 'statement_timeout'`,
    )
    if (setting && setting.ms > 0 && elapsed > setting.ms)
      throw Object.assign(new Error('canceling statement due to statement timeout'), {
        code: '57014',
      })
    return result
  }
  return {
    query: (sql, params) => timed(() => tx.query(sql, params)),
    exec: (sql) => timed(() => tx.exec(sql)),
  }
}

export async function openPgliteDatabase(
  dataDir: string | 'memory',
  options: PgliteOptions = {},
): Promise<PgliteDatabase> {
  const session = await openPgliteSession(dataDir, options.sessionSettings ?? {})
  const { takeTurn } = session
  return {
    kind: 'pglite',
    query: (sql, params) =>
      takeTurn(async (db) => (await db.query(sql, params ? [...params] : undefined)).rows as never),
    exec: (sql) => takeTurn(async (db) => void (await db.exec(sql))),
    transaction: (fn) =>
      takeTurn((db) =>
        db.transaction((tx: Transaction) =>
          fn(heldToStatementTimeout(wrap(tx.query.bind(tx), tx.exec.bind(tx)))),
        ),
      ),
    listen: session.listen,
    checkStorage: session.checkStorage,
    serveWire: (port) => serveWire(session, port),
    close: session.close,
  }
}
