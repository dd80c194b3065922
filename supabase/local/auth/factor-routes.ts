import type { Hono } from 'hono'
import { authFail } from './auth-errors'
import { CHALLENGE_SECONDS, readBody, text, UUID, type AuthContext } from './auth-input'
import { enrolment, newTotpSecret, totpStep } from './totp'

/** TOTP factors: enrol, challenge, verify (raising the session to aal2), unenrol. */
export function factorRoutes(app: Hono, ctx: AuthContext): void {
  const { store, caller, ownFactor, sessionJson, limits } = ctx
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

  app.post('/factors/:id/verify', limits.verify, async (c) => {
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
}
