/**
 * The one database seam of the local backend: the embedded PGlite (default) and a real PostgreSQL
 * (DATABASE_URL) both sit behind it, so the REST stand-in, the migrator, the submissions CLI and
 * the tests never care which one they talk to.
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
  /** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** The fields PostgreSQL reports for an error, as both drivers expose them. */
export type PgError = {
  code: string
  message: string
  detail: string | null
  hint: string | null
}

/** Reads a driver error (pg's or PGlite's DatabaseError) as a PgError, or null if it is not one. */
export function asPgError(error: unknown): PgError | null {
  if (typeof error !== 'object' || error === null) return null
  const { code, message, detail, hint } = error as Record<string, unknown>
  // SQLSTATEs are five characters; Node's system errors (ECONNREFUSED…) are not database errors.
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || typeof message !== 'string') {
    return null
  }
  return {
    code,
    message,
    detail: typeof detail === 'string' && detail !== '' ? detail : null,
    hint: typeof hint === 'string' && hint !== '' ? hint : null,
  }
}

/** The database was too busy to serve a request in time (another client held a transaction). */
export class DatabaseBusyError extends Error {
  constructor(waitedMs: number) {
    super(`the database stayed busy for ${waitedMs} ms (another client holds a transaction open)`)
    this.name = 'DatabaseBusyError'
  }
}
