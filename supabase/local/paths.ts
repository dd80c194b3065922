import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root, found from this file's place in it (supabase/local/). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const MIGRATIONS_DIR = join(REPO_ROOT, 'supabase', 'migrations')
export const BOOTSTRAP_SQL = join(REPO_ROOT, 'supabase', 'local', 'bootstrap.sql')

/** Where the backend keeps its state unless LOCAL_BACKEND_DIR says otherwise (gitignored). */
export const DEFAULT_BACKEND_DIR = join(REPO_ROOT, '.local-backend')

/** What lives in a backend folder: the database, the lock that keeps it to one process, and the
 * file that tells staff tools which wire address serves this checkout. */
export function backendPaths(backendDir: string = DEFAULT_BACKEND_DIR) {
  const dir = resolve(backendDir)
  return {
    dir,
    dataDir: join(dir, 'db'),
    lockFile: join(dir, 'backend.lock'),
    connectionFile: join(dir, 'connection.json'),
    identityFile: join(dir, 'dev-identity.txt'),
    storageDir: join(dir, 'storage'),
  }
}

/** The local password of `postgres` on the wire port, as `supabase start`'s (README.md). */
export const LOCAL_DB_PASSWORD = 'postgres'

/** A wire-protocol address as `supabase status` prints it. */
export const wireUrl = (port: number) =>
  `postgresql://postgres:${LOCAL_DB_PASSWORD}@127.0.0.1:${port}/postgres`
