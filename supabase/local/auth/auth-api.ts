import { Hono, type Context } from 'hono'
import { rateLimiter } from 'hono-rate-limiter'
import { asPgError, type Database } from '../database'
import { gatewayAuthorization } from '../gateway'
import { Refusal } from '../rest/errors'
import { AuthError, authErrorResponse, authFail, REFUSALS } from './auth-errors'
import { createAuthStore } from './auth-store'
import type { SessionRecord, UserRecord } from './records'
import { ACCESS_TOKEN_SECONDS, createTokens, type AccessClaims } from './auth-tokens'
import { adminRoutes } from './admin-routes'
import {
  AUTH_SETTINGS,
  clientAddress,
  RATE_WINDOW_MS,
  UNSTORABLE_TEXT,
  userJson,
  type AuthSettings,
} from './auth-input'
import { factorRoutes } from './factor-routes'
import { sessionRoutes } from './session-routes'

/**
 * Supabase Auth (GoTrue) at `/auth/v1`, for the calls the staff inbox and `npm run staff` make,
 * in GoTrue's shapes, with the settings of supabase/config.toml: sign-ups and anonymous sign-ins
 * refused, password sign-in (bcrypt, as GoTrue stores it), rotating refresh tokens, sign-out (this session, the others, or all), a password change, TOTP factors
 * (enrol, challenge, verify, unenrol), and the admin API for users and their factors. Passwords,
 * tokens, TOTP secrets and codes are never logged: the request log has method, path and status.
 */

export function createAuthApi(options: {
  db: Database
  jwtSecret: string
  settings?: Partial<AuthSettings>
}): Hono {
  const settings = { ...AUTH_SETTINGS, ...options.settings }
  const store = createAuthStore(options.db)
  const tokens = createTokens(options.jwtSecret)
  const apiKey = new TextEncoder().encode(options.jwtSecret)
  const validKeys = new Map<string, boolean>()

  const issuer = (c: Context) => `${new URL(c.req.url).origin}/auth/v1`

  async function sessionJson(
    c: Context,
    user: UserRecord,
    session: SessionRecord,
    refresh: string,
  ) {
    return {
      access_token: await tokens.sign(issuer(c), user, session),
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      expires_at: Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS,
      refresh_token: refresh,
      user: userJson(user, await store.factors(user.id)),
    }
  }

  /** The signed-in caller: a valid access token whose session and user still exist. */
  async function caller(c: Context) {
    const claims: AccessClaims = await tokens.verify(c.req.header('authorization'))
    if (claims.role !== 'authenticated') REFUSALS.badJwt('not a user token')
    const session = await store.session(claims.session_id)
    if (!session) return REFUSALS.sessionNotFound()
    const user = await store.userById(claims.sub)
    if (!user) return REFUSALS.userNotFound()
    return { claims, session, user }
  }

  async function ownFactor(userId: string, factorId: string) {
    const factor = (await store.factors(userId)).find((found) => found.id === factorId)
    return factor ?? authFail(404, 'mfa_factor_not_found', 'Factor not found')
  }

  const limiter = (limit: number) =>
    rateLimiter({
      windowMs: RATE_WINDOW_MS,
      limit,
      keyGenerator: clientAddress,
      handler: (c) =>
        authErrorResponse(
          c,
          new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
        ),
    })
  const limits = {
    signIn: limiter(settings.signInsPerWindow),
    refresh: limiter(settings.refreshesPerWindow),
    verify: limiter(settings.verificationsPerWindow),
  }
  const ctx = { settings, store, tokens, caller, ownFactor, sessionJson, limits }
  const app = new Hono()

  app.onError((error, c) => {
    if (error instanceof AuthError) return authErrorResponse(c, error)
    // Input PostgreSQL cannot hold as text (a NUL) is the client's fault, never a 500.
    if (UNSTORABLE_TEXT.has(asPgError(error)?.code ?? ''))
      return authErrorResponse(
        c,
        new AuthError(
          400,
          'validation_failed',
          'The request contains a character that cannot be stored',
        ),
      )
    // The error's class and SQLSTATE only: a message may quote what the request carried.
    const code = (error as { code?: unknown }).code
    console.error(`auth: unexpected ${error.name}${typeof code === 'string' ? ` (${code})` : ''}`)
    return authErrorResponse(c, new AuthError(500, 'unexpected_failure', 'Unexpected failure'))
  })

  // Kong's key-auth in front of Auth: every request carries one of the project's API keys.
  app.use(async (c, next) => {
    try {
      await gatewayAuthorization(c, apiKey, validKeys)
    } catch (refusal) {
      if (refusal instanceof Refusal) return refusal.response
      throw refusal
    }
    await next()
  })

  sessionRoutes(app, ctx)
  factorRoutes(app, ctx)
  adminRoutes(app, ctx)
  app.all('*', () =>
    authFail(404, 'not_found', 'The local stand-in does not serve this Auth endpoint'),
  )
  return app
}
