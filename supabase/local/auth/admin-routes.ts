import bcrypt from 'bcryptjs'
import type { Hono } from 'hono'
import { authFail, REFUSALS } from './auth-errors'
import {
  BCRYPT_COST,
  EMAIL,
  EMAIL_MAX_LENGTH,
  factorJson,
  readBody,
  text,
  tooLong,
  userJson,
  UUID,
  type AuthContext,
} from './auth-input'

/** The admin API for `service_role`: users and their factors (`npm run staff`). */
export function adminRoutes(app: Hono, ctx: AuthContext): void {
  const { settings, store, tokens, ownFactor } = ctx
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
    return c.json((await store.factors(id)).map(factorJson))
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
}
