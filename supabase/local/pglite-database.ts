import { mkdir } from 'node:fs/promises'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { DatabaseBusyError, type Database, type Queryable, type Row } from './database'
import { Mutex } from './mutex'

/** How long a request waits for a transaction opened by a wire-protocol client (psql) to end. */
const BUSY_TIMEOUT_MS = 10_000
const BUSY_POLL_MS = 20

export type PgliteDatabase = Database & {
  readonly kind: 'pglite'
  /**
   * The instance to hand to the wire-protocol server (pglite-socket). PGlite is one single-user
   * backend: every client shares its one session. This view makes the socket's statements and
   * this process's transactions take turns, so a psql query never lands inside a request's
   * transaction (running as anon) and a request never joins a psql user's open transaction.
   */
  readonly wireView: PGlite
}

function wrapTransaction(tx: Transaction): Queryable {
  return {
    async query<R extends Row = Row>(sql: string, params?: readonly unknown[]) {
      const result = await tx.query<R>(sql, params ? [...params] : undefined)
      return result.rows
    },
    async exec(sql: string) {
      await tx.exec(sql)
    },
  }
}

/** Opens (creating if needed) an embedded database in `dataDir`, or in memory for 'memory'. */
export async function openPgliteDatabase(dataDir: string | 'memory'): Promise<PgliteDatabase> {
  if (dataDir !== 'memory') await mkdir(dataDir, { recursive: true })
  const pglite = await PGlite.create(dataDir === 'memory' ? 'memory://' : dataDir)
  const turns = new Mutex()
  // True while this process holds its turn: the socket server must not mistake our transaction
  // for one of its clients' (it would otherwise wait for that client's next message).
  let ownTurn = false

  async function takeTurn<T>(fn: () => Promise<T>): Promise<T> {
    const started = Date.now()
    for (;;) {
      const outcome = await turns.run(async () => {
        // A wire client is between the statements of its own transaction: let it finish.
        if (pglite.isInTransaction()) return null
        ownTurn = true
        try {
          return { value: await fn() }
        } finally {
          ownTurn = false
        }
      })
      if (outcome) return outcome.value
      if (Date.now() - started > BUSY_TIMEOUT_MS) throw new DatabaseBusyError(BUSY_TIMEOUT_MS)
      await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS))
    }
  }

  const wireView = new Proxy(pglite, {
    get(target, property) {
      if (property === 'runExclusive') {
        return <T>(fn: () => Promise<T>) => turns.run(() => target.runExclusive(fn))
      }
      if (property === 'isInTransaction') {
        return () => !ownTurn && target.isInTransaction()
      }
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })

  return {
    kind: 'pglite',
    wireView,
    async query<R extends Row = Row>(sql: string, params?: readonly unknown[]) {
      return takeTurn(async () => {
        const result = await pglite.query<R>(sql, params ? [...params] : undefined)
        return result.rows
      })
    },
    async exec(sql: string) {
      await takeTurn(() => pglite.exec(sql))
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return takeTurn(() => pglite.transaction((tx) => fn(wrapTransaction(tx))))
    },
    async close() {
      await pglite.close()
    },
  }
}
