import bcrypt from 'bcryptjs'
import type { Hono } from 'hono'
import { authFail, REFUSALS } from './auth-errors'
import {
  BCRYPT_COST,
  readBody,
  text,
  tooLong,
  UNKNOWN_USER_HASH,
  userJson,
  type AuthContext,
} from './auth-input'
import { isRefreshTokenShaped, type UserRecord } from './records'

/** Sign-in and refresh, sign-up refused, the user and the password change, sign-out. */
export function sessionRoutes(app: Hono, ctx: AuthContext): void {
  const { settings, store, caller, sessionJson, limits } = ctx
  app.post('/token', async (c, next) => {
    const grant = c.req.query('grant_type')
    const limit = grant === 'password' ? limits.signIn : limits.refresh
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
}
