import { readFile } from 'node:fs/promises'
import lockfile from 'proper-lockfile'
import pg from 'pg'
import { backendPaths } from './paths'

/**
 * Which addresses serve THIS checkout's local backend, for staff tools: the wire address of its
 * database (`npm run inbox`) and its API (`npm run staff`), whatever ports it was started on.
 * The backend writes `<backend dir>/connection.json` (both addresses and a random instance id) and
 * sets the same id as the session setting `local_backend.instance_id`; a port that answers with
 * another id belongs to another checkout (or to `supabase start`) and is refused.
 */

export type ConnectionInfo = {
  /** The wire address of the embedded database; null when it has no wire port (LOCAL_DB_PORT=off). */
  url: string | null
  /** The API (REST and Auth), as supabase-js takes it. */
  apiUrl: string
  instanceId: string
  pid: number
}

export const INSTANCE_SETTING = 'local_backend.instance_id'
/** The backend's folder lock goes stale this long after its holder died without releasing it. */
export const LOCK_STALE_MS = 30_000

/** This checkout's running backend as its connection.json describes it, once its lock is held. */
async function runningBackend(dir?: string) {
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
  return { info, paths, notRunning }
}

/** The API address (REST and Auth) of this checkout's running backend, whatever port it took. */
export async function localApiUrl(dir?: string): Promise<string> {
  return (await runningBackend(dir)).info.apiUrl
}

export async function localDatabaseUrl(dir?: string): Promise<string> {
  const { info, paths, notRunning } = await runningBackend(dir)
  const url = info.url
  if (url === null) {
    throw new Error(
      `The local backend of ${paths.dir} runs without a database port (LOCAL_DB_PORT=off): restart it with one, or set DATABASE_URL.`,
    )
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 })
  try {
    await client.connect()
    const { rows } = await client.query<{ id: string | null }>(
      'select current_setting($1, true) as id',
      [INSTANCE_SETTING],
    )
    if (rows[0]?.id !== info.instanceId) {
      throw new Error(
        `${url} answers, but it is not the backend of ${paths.dir} (another checkout's?).`,
      )
    }
  } catch (error) {
    if ((error as Error).message.includes(url)) throw error
    throw new Error(`${notRunning}: ${url} does not answer (${(error as Error).message}).`)
  } finally {
    await client.end().catch(() => {})
  }
  return url
}
