import { mkdir, open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { serialized, storageFault, StorageFaultError } from '../database'

/**
 * PGlite is one single-user PostgreSQL backend: psql on the wire port (wire.ts) and the API share
 * its one session, taking turns. So that no psql session can change what the API runs:
 * - every turn of the API starts from a reset session (`SET SESSION AUTHORIZATION postgres;
 *   RESET ALL`), so a `SET default_transaction_read_only = on` in psql lasts until the next request;
 * - a psql transaction left open while the API waits is rolled back after a grace period and its
 *   connection closed (wire.ts), so inserts never hang;
 * - after a storage fault PGlite's file layer stays broken ("File exists"), so it is reopened from
 *   disk once the folder can be written again; nothing committed is lost.
 */

/** A wire client's open transaction may hold PGlite's single session this long while the API waits. */
export const WIRE_TRANSACTION_GRACE_MS = 2_000

export type PgliteSession = Awaited<ReturnType<typeof openPgliteSession>>

export async function openPgliteSession(
  dataDir: string | 'memory',
  sessionSettings: Record<string, string>,
) {
  const create = () =>
    PGlite.create(dataDir === 'memory' ? 'memory://' : dataDir, { extensions: { pgcrypto } })
  if (dataDir !== 'memory') await mkdir(dataDir, { recursive: true })
  const listeners: [string, (payload: string) => void][] = []
  const state = {
    pglite: await create(),
    faulted: null as StorageFaultError | null,
    /** True while the API's own statements run (its transaction is never a wire client's). */
    ownTurn: false,
    /** Who the shared session is now: 'postgres' after the API's reset, null after a startup. */
    sessionRole: 'postgres' as string | null,
    /** Ends the wire connection whose transaction was rolled back (set by wire.ts). */
    kickWireTransaction: null as (() => void) | null,
  }
  const turn = serialized()
  const reset = () =>
    state.pglite.exec(
      // Named, not DEFAULT: in PGlite `SET SESSION AUTHORIZATION DEFAULT` (and RESET) keep the
      // role a wire client switched to, so the API would go on as that role.
      'set session authorization postgres; reset all;' +
        Object.entries(sessionSettings)
          .map(([name, value]) => `set ${name} = '${value.replace(/'/g, "''")}';`)
          .join(''),
    )

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
          if (!state.faulted) return
          // Closing may hang on a broken instance: it is abandoned, not awaited forever.
          await Promise.race([
            state.pglite.close(),
            new Promise((resolve) => setTimeout(resolve, 2_000)),
          ])
          state.pglite = await create()
          for (const [channel, onPayload] of listeners)
            await state.pglite.listen(channel, onPayload)
          state.faulted = null
        })
      } finally {
        reopening = null
      }
    })()
    await reopening
  }

  /** One turn of the API on a reset session, after any wire transaction's grace period. */
  async function takeTurn<T>(fn: (db: PGlite) => Promise<T>): Promise<T> {
    if (state.faulted) await reopenIfWritable()
    const started = Date.now()
    for (;;) {
      const outcome = await turn(async () => {
        if (state.pglite.isInTransaction()) {
          if (Date.now() - started < WIRE_TRANSACTION_GRACE_MS) return null
          await state.pglite.exec('rollback')
          state.kickWireTransaction?.()
        }
        state.ownTurn = true
        try {
          await reset()
          state.sessionRole = 'postgres'
          return { value: await fn(state.pglite) }
        } catch (error) {
          const fault = storageFault(error)
          // An in-memory database has no folder to recover: reopening it would empty it.
          if (fault && dataDir !== 'memory') state.faulted = fault
          throw fault ?? error
        } finally {
          state.ownTurn = false
        }
      })
      if (outcome) return outcome.value
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  return {
    state,
    turn,
    takeTurn,
    async listen(channel: string, onPayload: (payload: string) => void) {
      listeners.push([channel, onPayload])
      await takeTurn((db) => db.listen(channel, onPayload))
    },
    async checkStorage() {
      if (state.faulted) await reopenIfWritable()
      else
        await probeDataDir().catch((error: StorageFaultError) =>
          Promise.reject((state.faulted = error)),
        )
      await takeTurn((db) => db.query('select 1'))
    },
    close: () => turn(() => state.pglite.close()),
  }
}
