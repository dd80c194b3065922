import { getConnInfo } from '@hono/node-server/conninfo'
import bcrypt from 'bcryptjs'
import type { Context, MiddlewareHandler } from 'hono'
import { authFail } from './auth-errors'
import type { AuthStore } from './auth-store'
import type { AccessClaims, Tokens } from './auth-tokens'
import type { FactorRecord, SessionRecord, UserRecord } from './records'

/** What Auth's routes share: its settings, GoTrue's rules for input, and its user's JSON. */

export type AuthSettings = {
  /** supabase/config.toml `minimum_password_length`. */
  minimumPasswordLength: number
  /** `[auth.rate_limit] sign_in_sign_ups`: password sign-ins per 5 minutes per IP address. */
  signInsPerWindow: number
  /** GoTrue's token_refresh limit: refreshes per 5 minutes per IP address. */
  refreshesPerWindow: number
  /** `[auth.rate_limit] token_verifications`: TOTP verifications per 5 minutes per IP address. */
  verificationsPerWindow: number
  /** `refresh_token_reuse_interval`, seconds. */
  refreshReuseSeconds: number
  /**
   * `[auth.sessions] timebox`, seconds: a session older than this is refused at its next refresh
   * (GoTrue's `session_expired`). Hosted Supabase offers it on the Pro plan and up.
   */
  sessionTimeboxSeconds: number
}

export const AUTH_SETTINGS: AuthSettings = {
  minimumPasswordLength: 12,
  signInsPerWindow: 30,
  refreshesPerWindow: 150,
  verificationsPerWindow: 30,
  refreshReuseSeconds: 10,
  sessionTimeboxSeconds: 30 * 24 * 3600,
}

export const RATE_WINDOW_MS = 5 * 60_000
/** GoTrue's TOTP challenge lifetime (MFA_CHALLENGE_EXPIRY_DURATION). */
export const CHALLENGE_SECONDS = 300
export const BCRYPT_COST = 10
/** Compared against when the email is unknown, so both failures take as long. */
export const UNKNOWN_USER_HASH = bcrypt.hashSync('no user has this password', BCRYPT_COST)

export type Body = Record<string, unknown>

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** No control character (a NUL cannot even be stored in PostgreSQL's text), no space, one @. */
export const EMAIL = /^[^@\s\p{Cc}]+@[^@\s\p{Cc}]+$/u
/** `auth.users.email` is varchar(255); GoTrue refuses longer addresses before storing them. */
export const EMAIL_MAX_LENGTH = 255
/** bcrypt reads no further; GoTrue refuses longer passwords where they are set (Go's len: bytes). */
const PASSWORD_MAX_BYTES = 72
export const tooLong = (password: string) =>
  Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES
/** PostgreSQL cannot store a NUL in text: 22021 from the server, the same from PGlite. */
export const UNSTORABLE_TEXT = new Set(['22021', '22P05'])

export async function readBody(c: Context): Promise<Body> {
  const value: unknown = await c.req.json().catch(() => null)
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    authFail(400, 'bad_json', 'Could not parse request body as JSON')
  return value as Body
}

export const text = (value: unknown) => (typeof value === 'string' ? value : '')

export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

/** A factor as GoTrue answers it (never its secret). */
export function factorJson(factor: FactorRecord) {
  return {
    id: factor.id,
    friendly_name: factor.friendly_name ?? undefined,
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: factor.created_at,
    updated_at: factor.updated_at,
  }
}

export function userJson(user: UserRecord, factors: FactorRecord[]) {
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: user.email_confirmed_at,
    phone: '',
    confirmed_at: user.email_confirmed_at,
    last_sign_in_at: user.last_sign_in_at,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    identities: [],
    created_at: user.created_at,
    updated_at: user.updated_at,
    is_anonymous: user.is_anonymous,
    ...(factors.length > 0
      ? {
          factors: factors.map(factorJson),
        }
      : {}),
  }
}

/** What the route groups (session-, factor- and admin-routes.ts) are handed by auth-api.ts. */
export type AuthContext = {
  settings: AuthSettings
  store: AuthStore
  tokens: Tokens
  caller: (
    c: Context,
  ) => Promise<{ claims: AccessClaims; session: SessionRecord; user: UserRecord }>
  ownFactor: (userId: string, factorId: string) => Promise<FactorRecord>
  sessionJson: (
    c: Context,
    user: UserRecord,
    session: SessionRecord,
    refresh: string,
  ) => Promise<Record<string, unknown>>
  limits: Record<'signIn' | 'refresh' | 'verify', MiddlewareHandler>
}
