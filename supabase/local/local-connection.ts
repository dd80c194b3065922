import { readFile } from 'node:fs/promises'
import lockfile from 'proper-lockfile'
import pg from 'pg'
import { backendPaths } from './paths'

/**
 * Which wire address serves THIS checkout's local database, for staff tools (`npm run inbox`).
 * The backend writes `<backend dir>/connection.json` (URL and a random instance id) and sets the
 * same id as the session setting `local_backend.instance_id`; a port that answers with another id
 * belongs to another checkout (or to `supabase start`) and is refused.
 */

export type ConnectionInfo = { url: string; instanceId: string; pid: number }

export const INSTANCE_SETTING = 'local_backend.instance_id'
/** The backend's folder lock goes stale this long after its holder died without releasing it. */
export const LOCK_STALE_MS = 30_000

export async function localDatabaseUrl(dir?: string): Promise<string> {
  const paths = backendPaths(dir ?? (process.env.LOCAL_BACKEND_DIR?.trim() || undefined))
  const notRunning = `No local backend is running for ${paths.dir}`
  let info: ConnectionInfo
  try {
    info = JSON.parse(await readFile(paths.connectionFile, 'utf8')) as ConnectionInfo
  } catch {
    throw new Error(`${notRunning} (no ${paths.connectionFile}).`)
  }
  const held = await lockfile
    .check(paths.dir, { lockfilePath: paths.lockFile, stale: LOCK_STALE_MS })
    .catch(() => false)
  if (!held)
    throw new Error(`${notRunning}: ${paths.connectionFile} was left by a backend that stopped.`)

  const client = new pg.Client({ connectionString: info.url, connectionTimeoutMillis: 3_000 })
  try {
    await client.connect()
    const { rows } = await client.query<{ id: string | null }>(
      'select current_setting($1, true) as id',
      [INSTANCE_SETTING],
    )
    if (rows[0]?.id !== info.instanceId) {
      throw new Error(
        `${info.url} answers, but it is not the backend of ${paths.dir} (another checkout's?).`,
      )
    }
  } catch (error) {
    if ((error as Error).message.includes(info.url)) throw error
    throw new Error(`${notRunning}: ${info.url} does not answer (${(error as Error).message}).`)
  } finally {
    await client.end().catch(() => {})
  }
  return info.url
}
