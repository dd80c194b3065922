/**
 * The ports `npm start` serves on, each from its own variable, so that a second checkout can run
 * beside the first (README, Configuration). The site's and the inbox's Vite configs, the backend
 * and the staff commands all read them here, so the defaults live in one place.
 */
export const LOCAL_PORTS = {
  site: { variable: 'SITE_PORT', fallback: 4173 },
  inbox: { variable: 'INBOX_PORT', fallback: 4174 },
  api: { variable: 'LOCAL_API_PORT', fallback: 54321 },
  db: { variable: 'LOCAL_DB_PORT', fallback: 54322 },
} as const

export type LocalService = keyof typeof LOCAL_PORTS

export class PortConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PortConfigError'
  }
}

/** The port for a service: its variable when set (0 asks the system for a free one), else the default. */
export function localPort(service: LocalService, env: NodeJS.ProcessEnv = process.env): number {
  const { variable, fallback } = LOCAL_PORTS[service]
  const raw = env[variable]?.trim()
  if (!raw) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) > 65535)
    throw new PortConfigError(`${variable} must be a port number (0-65535), got "${raw}".`)
  return Number(raw)
}

/** Where `npm start` serves a service over HTTP on this machine. */
export const localHttpUrl = (service: LocalService, env: NodeJS.ProcessEnv = process.env) =>
  `http://127.0.0.1:${localPort(service, env)}`

/**
 * The site's and the inbox's Supabase address when VITE_SUPABASE_URL is not set: the local
 * backend's, following LOCAL_API_PORT, so a second checkout's pages call their own backend.
 */
export function withLocalSupabaseUrl<Env extends Record<string, string>>(
  viteEnv: Env,
  env: NodeJS.ProcessEnv = process.env,
): Env {
  if (viteEnv.VITE_SUPABASE_URL?.trim()) return viteEnv
  return { ...viteEnv, VITE_SUPABASE_URL: localHttpUrl('api', env) }
}
