import pg from 'pg'
import { storageFault, wrap, type Database } from '../database'

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
