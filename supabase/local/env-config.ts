import { resolve } from 'node:path'
import { DEFAULT_API_PORT, DEFAULT_DB_PORT, type LocalBackendOptions } from './local-backend'
import { dataDirIn, DEFAULT_BACKEND_DIR } from './paths'

/**
 * The stand-in's configuration from the environment, read once here and failing loudly on a
 * malformed value:
 *   LOCAL_API_PORT     HTTP port (default 54321)
 *   LOCAL_DB_PORT      wire-protocol port of the embedded database (default 54322; "off" for none)
 *   LOCAL_BACKEND_DIR  state directory; the database lives in its `db/` (default .local-backend)
 *   DATABASE_URL       use this PostgreSQL instead of the embedded database
 *   LOCAL_JWT_SECRET   HS256 secret of the API keys (default: the Supabase CLI's demo secret)
 */

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim()
  return raw === undefined || raw === '' ? undefined : raw
}

function port(env: Env, name: string, fallback: number): number {
  const raw = value(env, name)
  if (raw === undefined) return fallback
  const parsed = Number(raw)
  if (!/^\d+$/.test(raw) || parsed > 65535) {
    throw new ConfigError(`${name} must be a port number (0-65535), got "${raw}"`)
  }
  return parsed
}

export function backendDirFromEnv(env: Env): string {
  return resolve(value(env, 'LOCAL_BACKEND_DIR') ?? DEFAULT_BACKEND_DIR)
}

export function dbPortFromEnv(env: Env): number | null {
  const raw = value(env, 'LOCAL_DB_PORT')
  if (raw !== undefined && /^(off|none|false)$/i.test(raw)) return null
  return port(env, 'LOCAL_DB_PORT', DEFAULT_DB_PORT)
}

export function backendOptionsFromEnv(env: Env): LocalBackendOptions {
  const databaseUrl = value(env, 'DATABASE_URL')
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL')
  }
  const jwtSecret = value(env, 'LOCAL_JWT_SECRET')
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError(
      'LOCAL_JWT_SECRET must be at least 32 characters long, as Supabase requires',
    )
  }
  return {
    apiPort: port(env, 'LOCAL_API_PORT', DEFAULT_API_PORT),
    dbPort: databaseUrl === undefined ? dbPortFromEnv(env) : null,
    dataDir: dataDirIn(backendDirFromEnv(env)),
    databaseUrl,
    jwtSecret,
  }
}
