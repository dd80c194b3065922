/**
 * The one database seam: the embedded PGlite (db/pglite.ts, default) or a real PostgreSQL
 * (db/postgres.ts, DATABASE_URL). The API, the migrator, the timers and the tests never care which
 * one they talk to.
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

export function storageFault(error: unknown): StorageFaultError | null {
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
export function serialized() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const result = tail.then(fn)
    tail = result.catch(() => {})
    return result
  }
}

export type Run = (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>

/** `execScript` runs several statements at once (PGlite needs its own call for that). */
export function wrap(run: Run, execScript: (sql: string) => Promise<unknown> = run): Queryable {
  return {
    query: async <R extends Row>(sql: string, params?: readonly unknown[]) =>
      (await run(sql, params ? [...params] : undefined)).rows as R[],
    exec: async (sql: string) => {
      await execScript(sql)
    },
  }
}
