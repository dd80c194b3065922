import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_BACKEND_DIR } from '../local/paths'
import { UsageError } from './cli-io'

/**
 * Where the inbox reads: DATABASE_URL (a hosted project's connection string, ideally a staff
 * login), else this checkout's local backend.
 */

const LOCAL_CONNECTION_MODULE = new URL('../local/local-connection.ts', import.meta.url)

export type Connection = { url: string; label: string; local: boolean; warning: string | null }

type LocalConnectionModule = { localDatabaseUrl(dir?: string): string | Promise<string> }

/** The URL without its password, to say where we read. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(an unparsable DATABASE_URL)'
  }
}

export async function resolveConnection(env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  const databaseUrl = env.DATABASE_URL?.trim()
  if (databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new UsageError('DATABASE_URL must be a postgres:// or postgresql:// URL.')
    }
    return { url: databaseUrl, label: redactUrl(databaseUrl), local: false, warning: null }
  }
  // The local backend knows which wire port serves this checkout, and says so if none runs.
  if (existsSync(fileURLToPath(LOCAL_CONNECTION_MODULE))) {
    const module = (await import(LOCAL_CONNECTION_MODULE.href)) as LocalConnectionModule
    try {
      const url = await module.localDatabaseUrl()
      return { url, label: `the local backend (${redactUrl(url)})`, local: true, warning: null }
    } catch (error) {
      throw new UsageError(
        `${error instanceof Error ? error.message : String(error)}\n` +
          'Start it with `npm start` (or `npm run backend`), or set DATABASE_URL to read a hosted project.',
      )
    }
  }
  const port = env.LOCAL_DB_PORT?.trim() || '54322'
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`
  return {
    url,
    label: `the local backend (${redactUrl(url)})`,
    local: true,
    warning: `DATABASE_URL is not set: reading ${redactUrl(url)}, which may be another checkout's backend.`,
  }
}

/** The local development identity the backend creates (<backend dir>/dev-identity.txt, dev-identity.ts). */
export function defaultIdentityFile(env: NodeJS.ProcessEnv = process.env): string {
  // Computed here rather than taken from dev-identity.ts's DEV_IDENTITY_FILE so that `env` decides.
  return join(resolve(env.LOCAL_BACKEND_DIR?.trim() || DEFAULT_BACKEND_DIR), 'dev-identity.txt')
}
