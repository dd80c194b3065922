import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

/** The repository root, found from this file's place in it (supabase/local/). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

export const MIGRATIONS_DIR = join(REPO_ROOT, 'supabase', 'migrations')
export const BOOTSTRAP_SQL = join(REPO_ROOT, 'supabase', 'local', 'bootstrap.sql')

/** Where the stand-in keeps its state unless LOCAL_BACKEND_DIR says otherwise (gitignored). */
export const DEFAULT_BACKEND_DIR = join(REPO_ROOT, '.local-backend')

/** The embedded database's data directory inside a backend directory. */
export function dataDirIn(backendDir: string): string {
  return join(backendDir, 'db')
}

/**
 * The address of the embedded database's wire port. PGlite accepts any user name and password;
 * these are the ones `supabase status` prints.
 */
export function wireUrl(port: number): string {
  return `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`
}
