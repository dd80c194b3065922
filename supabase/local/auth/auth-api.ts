import { getConnInfo } from '@hono/node-server/conninfo'
import bcrypt from 'bcryptjs'
import { Hono, type Context } from 'hono'
import { rateLimiter } from 'hono-rate-limiter'
import { asPgError, type Database } from '../database'
import { gatewayAuthorization } from '../gateway'
import { Refusal } from '../rest/errors'
import { AuthError, authErrorResponse, authFail, REFUSALS } from './auth-errors'
import {
  createAuthStore,
  isRefreshTokenShaped,
  type FactorRecord,
  type SessionRecord,
  type UserRecord,
} from './auth-store'
import { ACCESS_TOKEN_SECONDS, createTokens, type AccessClaims } from './auth-tokens'
import { enrolment, newTotpSecret, totpStep } from './totp'

/**
 * Supabase Auth (GoTrue) at `/auth/v1`, for the calls the staff inbox and `npm run staff` make,
 * in GoTrue's shapes, with the settings of supabase/config.toml: sign-ups and anonymous sign-ins
 * refused, password sign-in (bcrypt, as GoTrue stores it), rotating refresh tokens, sign-out (this session, the others, or all), a password change, TOTP factors
 * (enrol, challenge, verify, unenrol), and the admin API for users and their factors. Passwords,
 * tokens, TOTP secrets and codes are never logged: the request log has method, path and status.
 */

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

const RATE_WINDOW_MS = 5 * 60_000
/** GoTrue's TOTP challenge lifetime (MFA_CHALLENGE_EXPIRY_DURATION). */
const CHALLENGE_SECONDS = 300
const BCRYPT_COST = 10
/** Compared against when the email is unknown, so both failures take as long. */
const UNKNOWN_USER_HASH = bcrypt.hashSync('no user has this password', BCRYPT_COST)

type Body = Record<string, unknown>

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** No control character (a NUL cannot even be stored in PostgreSQL's text), no space, one @. */
const EMAIL = /^[^@\s\p{Cc}]+@[^@\s\p{Cc}]+$/u
/** `auth.users.email` is varchar(255); GoTrue refuses longer addresses before storing them. */
const EMAIL_MAX_LENGTH = 255
/** bcrypt reads no further; GoTrue refuses longer passwords where they are set (Go's len: bytes). */
const PASSWORD_MAX_BYTES = 72
const tooLong = (password: string) => Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES
/** PostgreSQL cannot store a NUL in text: 22021 from the server, the same from PGlite. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05'])

async function readBody(c: Context): Promise<Body> {
  const value: unknown = await c.req.json().catch(() => null)
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    authFail(400, 'bad_json', 'Could not parse request body as JSON')
  return value as Body
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

function userJson(user: UserRecord, factors: FactorRecord[]) {
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
          factors: factors.map((factor) => ({
            id: factor.id,
            friendly_name: factor.friendly_name ?? undefined,
            factor_type: factor.factor_type,
            status: factor.status,
            created_at: factor.created_at,
            updated_at: factor.updated_at,
          })),
        }
      : {}),
  }
}

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
  const app = new Hono()

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
  const signInLimit = limiter(settings.signInsPerWindow)
  const refreshLimit = limiter(settings.refreshesPerWindow)
  const verifyLimit = limiter(settings.verificationsPerWindow)

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

  app.post('/token', async (c, next) => {
    const grant = c.req.query('grant_type')
    const limit = grant === 'password' ? signInLimit : refreshLimit
    return limit(c, next)
  })

  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type')
    const body = await readBody(c)
    if (grant === 'password') {
      const email = text(body.email)
      const password = text(body.password)
      // No password over 72 bytes can have been set (bcrypt would compare only its first 72), and
      // no stored address holds a NUL: both are wrong credentials, answered as any other.
      if (tooLong(password)) return REFUSALS.invalidCredentials()
      const user = email.includes('\u0000') ? null : await store.userByEmail(email)
      const matches = await bcrypt.compare(password, user?.encrypted_password ?? UNKNOWN_USER_HASH)
      if (!user || !user.encrypted_password || !matches) return REFUSALS.invalidCredentials()
      const started = await store.startSession(user.id)
      const signedIn = (await store.userById(user.id)) as UserRecord
      return c.json(await sessionJson(c, signedIn, started.session, started.refreshToken))
    }
    if (grant === 'refresh_token') {
      const refreshToken = text(body.refresh_token)
      // GoTrue parses a token before looking it up, and answers this for one it cannot parse.
      if (!isRefreshTokenShaped(refreshToken))
        authFail(400, 'validation_failed', 'Refresh token is not valid')
      const rotated = await store.rotate(
        refreshToken,
        settings.refreshReuseSeconds,
        settings.sessionTimeboxSeconds,
      )
      if (rotated.outcome === 'expired')
        authFail(400, 'session_expired', 'Invalid Refresh Token: Session Expired')
      if (rotated.outcome === 'not_found')
        authFail(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
      if (rotated.outcome === 'reused')
        authFail(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
      const user = await store.userById(rotated.session.user_id)
      if (!user) return REFUSALS.userNotFound()
      return c.json(await sessionJson(c, user, rotated.session, rotated.refreshToken))
    }
    return authFail(400, 'unsupported_grant_type', 'unsupported_grant_type')
  })

  app.post('/signup', async (c) => {
    const body = await readBody(c)
    return text(body.email) || text(body.phone)
      ? REFUSALS.signupDisabled()
      : REFUSALS.anonymousDisabled()
  })

  app.get('/user', async (c) => {
    const { user } = await caller(c)
    return c.json(userJson(user, await store.factors(user.id)))
  })

  // A password change (auth.updateUser({ password })), as GoTrue makes it: at aal2 once the
  // account has a verified factor, within the password rules, never the same password, and the
  // account's other sessions ended (GoTrue's UpdatePassword logs out all but this one).
  app.put('/user', async (c) => {
    const { user, session } = await caller(c)
    const body = await readBody(c)
    if (body.password === undefined) return c.json(userJson(user, await store.factors(user.id)))
    const password = text(body.password)
    const factors = await store.factors(user.id)
    if (factors.some((factor) => factor.status === 'verified') && session.aal !== 'aal2')
      authFail(
        401,
        'insufficient_aal',
        'AAL2 session is required to update email or password when MFA is enabled.',
      )
    if (tooLong(password))
      authFail(400, 'validation_failed', 'Password cannot be longer than 72 characters')
    if (password.length < settings.minimumPasswordLength)
      authFail(
        422,
        'weak_password',
        `Password should be at least ${settings.minimumPasswordLength} characters.`,
        { weak_password: { reasons: ['length'] } },
      )
    if (user.encrypted_password && (await bcrypt.compare(password, user.encrypted_password)))
      authFail(422, 'same_password', 'New password should be different from the old password.')
    await store.setPassword(user.id, await bcrypt.hash(password, BCRYPT_COST), session.id)
    const updated = (await store.userById(user.id)) as UserRecord
    return c.json(userJson(updated, await store.factors(user.id)))
  })

  app.post('/logout', async (c) => {
    const { claims, session } = await caller(c)
    const scope = c.req.query('scope') ?? 'global'
    if (scope !== 'global' && scope !== 'local' && scope !== 'others')
      authFail(400, 'validation_failed', 'Unsupported logout scope')
    await store.endSessions(claims.sub, session.id, scope)
    return c.body(null, 204)
  })

  app.post('/factors', async (c) => {
    const { user, session } = await caller(c)
    const body = await readBody(c)
    if (body.factor_type !== 'totp')
      authFail(422, 'mfa_factor_type_not_supported', 'Only TOTP factors are enabled')
    const factors = await store.factors(user.id)
    if (factors.some((factor) => factor.status === 'verified') && session.aal !== 'aal2')
      authFail(422, 'insufficient_aal', 'AAL2 required to enroll a new factor')
    const friendlyName = text(body.friendly_name) || null
    if (friendlyName && factors.some((factor) => factor.friendly_name === friendlyName))
      authFail(
        422,
        'mfa_factor_name_conflict',
        `A factor with the friendly name "${friendlyName}" for this user already exists`,
      )
    const factor = await store.addFactor(user.id, friendlyName, newTotpSecret())
    const issuerName = text(body.issuer) || new URL(c.req.url).host
    return c.json({
      id: factor.id,
      type: 'totp',
      friendly_name: factor.friendly_name ?? '',
      totp: await enrolment(factor.secret, issuerName, user.email ?? user.id),
    })
  })

  app.post('/factors/:id/challenge', async (c) => {
    const { user } = await caller(c)
    const factor = await ownFactor(user.id, c.req.param('id'))
    const challenge = await store.addChallenge(factor.id)
    return c.json({
      id: challenge.id,
      type: 'totp',
      expires_at: challenge.created_at + CHALLENGE_SECONDS,
    })
  })

  app.post('/factors/:id/verify', verifyLimit, async (c) => {
    const { user, session } = await caller(c)
    const factor = await ownFactor(user.id, c.req.param('id') ?? '')
    const body = await readBody(c)
    const challengeId = text(body.challenge_id)
    const challenge = UUID.test(challengeId) ? await store.challenge(challengeId, factor.id) : null
    if (!challenge || challenge.verified)
      authFail(404, 'mfa_challenge_not_found', 'Challenge not found')
    if (challenge.age_seconds > CHALLENGE_SECONDS)
      authFail(422, 'mfa_challenge_expired', 'Challenge has expired, please create a new one')
    const step = totpStep(factor.secret, text(body.code))
    // A code already accepted once gets the wrong code's answer (GoTrue would accept it again).
    const raised =
      step === null ? null : await store.raiseToAal2(session, factor.id, challengeId, step)
    if (!raised) return authFail(422, 'mfa_verification_failed', 'Invalid TOTP code entered')
    return c.json(await sessionJson(c, user, raised.session, raised.refreshToken))
  })

  app.delete('/factors/:id', async (c) => {
    const { user, session } = await caller(c)
    const factor = await ownFactor(user.id, c.req.param('id'))
    if (factor.status === 'verified' && session.aal !== 'aal2')
      authFail(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor')
    await store.removeFactor(factor.id)
    return c.json({ id: factor.id })
  })

  // ---------------------------------------------------------------- admin (service_role)

  app.use('/admin/*', async (c, next) => {
    const claims = await tokens.verify(c.req.header('authorization'))
    if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') REFUSALS.notAdmin()
    await next()
  })

  app.post('/admin/users', async (c) => {
    const body = await readBody(c)
    const email = text(body.email).trim()
    const password = text(body.password)
    if (email.length > EMAIL_MAX_LENGTH)
      authFail(400, 'validation_failed', 'An email address is too long')
    if (!EMAIL.test(email))
      authFail(400, 'validation_failed', 'Unable to validate email address: invalid format')
    if (tooLong(password))
      authFail(400, 'validation_failed', 'Password cannot be longer than 72 characters')
    if (password.length < settings.minimumPasswordLength) {
      authFail(
        422,
        'weak_password',
        `Password should be at least ${settings.minimumPasswordLength} characters.`,
        {
          weak_password: { reasons: ['length'] },
        },
      )
    }
    const user = await store.createUser(email, await bcrypt.hash(password, BCRYPT_COST))
    if (!user)
      authFail(422, 'email_exists', 'A user with this email address has already been registered')
    return c.json(userJson(user, []))
  })

  app.get('/admin/users', async (c) => {
    const page = Math.max(1, Number(c.req.query('page') ?? '1') || 1)
    const perPage = Math.min(1000, Math.max(1, Number(c.req.query('per_page') ?? '50') || 50))
    const { users, total } = await store.listUsers(page, perPage)
    c.header('x-total-count', String(total))
    return c.json({ users: users.map((user) => userJson(user, [])), aud: 'authenticated' })
  })

  // A lost authenticator (`npm run staff -- reset-mfa`): the admin lists a user's factors and
  // deletes them. Deleting a verified one ends all the user's sessions, as GoTrue documents.
  app.get('/admin/users/:id/factors', async (c) => {
    const id = c.req.param('id')
    if (!UUID.test(id) || !(await store.userById(id)))
      authFail(404, 'user_not_found', 'User not found')
    const factors = (await store.factors(id)).map((factor) => ({
      id: factor.id,
      friendly_name: factor.friendly_name ?? undefined,
      factor_type: factor.factor_type,
      status: factor.status,
      created_at: factor.created_at,
      updated_at: factor.updated_at,
    }))
    return c.json(factors)
  })

  app.delete('/admin/users/:id/factors/:factorId', async (c) => {
    const id = c.req.param('id')
    if (!UUID.test(id) || !(await store.userById(id)))
      authFail(404, 'user_not_found', 'User not found')
    const factor = await ownFactor(id, c.req.param('factorId'))
    await store.removeFactor(factor.id)
    if (factor.status === 'verified') await store.endAllSessions(id)
    return c.json({ id: factor.id })
  })

  app.delete('/admin/users/:id', async (c) => {
    const id = c.req.param('id')
    if (!UUID.test(id) || !(await store.deleteUser(id)))
      authFail(404, 'user_not_found', 'User not found')
    return c.json({})
  })

  app.all('*', () =>
    authFail(404, 'not_found', 'The local stand-in does not serve this Auth endpoint'),
  )
  return app
}
