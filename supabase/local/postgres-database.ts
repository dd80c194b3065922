import pg from 'pg'
import type { Database, Queryable, Row } from './database'

function wrapClient(client: pg.PoolClient): Queryable {
  return {
    async query<R extends Row = Row>(sql: string, params?: readonly unknown[]) {
      const result = await client.query<R>(sql, params ? [...params] : undefined)
      return result.rows
    },
    async exec(sql: string) {
      // Without parameters pg uses the simple query protocol, which accepts several statements.
      await client.query(sql)
    },
  }
}

/** Connects to a real PostgreSQL (a developer's server, or the throwaway test databases). */
export async function openPostgresDatabase(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 5 })
  // Fail now, with the driver's reason, rather than on the first request.
  const probe = await pool.connect()
  probe.release()
  // An idle client whose server goes away emits 'error'; without a listener that would crash.
  pool.on('error', () => {})

  return {
    kind: 'postgres',
    async query<R extends Row = Row>(sql: string, params?: readonly unknown[]) {
      const result = await pool.query<R>(sql, params ? [...params] : undefined)
      return result.rows
    },
    async exec(sql: string) {
      await pool.query(sql)
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect()
      let broken = false
      try {
        await client.query('begin')
        const value = await fn(wrapClient(client))
        await client.query('commit')
        return value
      } catch (error) {
        // A connection that cannot even roll back is discarded rather than reused.
        await client.query('rollback').catch(() => {
          broken = true
        })
        throw error
      } finally {
        client.release(broken)
      }
    },
    async close() {
      await pool.end()
    },
  }
}
