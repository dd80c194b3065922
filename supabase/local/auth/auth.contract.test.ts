// @vitest-environment node
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { totpCode } from './totp'
import type { LocalBackend } from '../local-backend'
import { NoRealtimeSocket, registerTestKey, testBackends } from '../test-support'

/**
 * Supabase Auth as the staff inbox meets it, through the real supabase-js client, on both
 * databases the stand-in runs on: staff added by the agency sign in with a password, enrol and
 * verify TOTP, and only then read sealed rows and change their status; refresh keeps aal2,
 * sign-out kills the refresh token, and what GoTrue refuses is refused in its words.
 */

const PASSWORD = 'correct horse battery staple'

/**
 * Everything the backend writes while these tests run (its log and the console), and every secret
 * the tests handled: the last test holds the first to contain none of the second.
 */
const written: string[] = []
const secretsHandled = new Set<string>([PASSWORD])
const handled = (...secrets: (string | undefined)[]) =>
  secrets.forEach((secret) => secret && secretsHandled.add(secret))

function clientFor(backend: LocalBackend, key = backend.anonKey): SupabaseClient {
  return createClient(backend.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtimeSocket as never },
  })
}

/** Adds a staff member as `npm run staff -- add` does: an Auth user, then the staff list. */
async function addStaff(backend: LocalBackend, email: string) {
  const admin = clientFor(backend, backend.serviceRoleKey)
  const created = await admin.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  })
  expect(created.error).toBeNull()
  const listed = await admin.rpc('add_staff_member', { email })
  expect(listed.error).toBeNull()
  return created.data.user?.id ?? ''
}

/** Signs in, enrols TOTP and verifies it: an aal2 session, and the factor's secret. */
async function signInWithSecondFactor(client: SupabaseClient, email: string) {
  expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone' })
  if (enrolled.error) throw enrolled.error
  const factorId = enrolled.data.id
  const challenge = await client.auth.mfa.challenge({ factorId })
  if (challenge.error) throw challenge.error
  const code = totpCode(enrolled.data.totp.secret)
  const verified = await client.auth.mfa.verify({ factorId, challengeId: challenge.data.id, code })
  if (verified.error) throw verified.error
  const session = (await client.auth.getSession()).data.session
  handled(enrolled.data.totp.secret, code, session?.access_token, session?.refresh_token)
  return { factorId, secret: enrolled.data.totp.secret, code }
}

const backends = testBackends({ log: (line) => written.push(line) })

describe.each(backends)('Supabase Auth and the inbox on $name', ({ start, oracle }) => {
  let started: Awaited<ReturnType<typeof start>>
  let backend: LocalBackend
  let rowId: string

  beforeAll(async () => {
    for (const method of ['log', 'info', 'warn', 'error'] as const) {
      const original = console[method]
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        written.push(args.map(String).join(' '))
        original(...args)
      })
    }
    started = await start()
    backend = started.backend
    const key = await registerTestKey(backend.db)
    const row = key.sealedRow()
    rowId = row.id
    const inserted = await clientFor(backend).from('contact_submissions').insert(row)
    expect(inserted.error).toBeNull()
  }, 120_000)
  afterAll(async () => {
    vi.restoreAllMocks()
    await started?.stop()
  })

  it('signs staff in with a password: an aal1 session whose token carries GoTrue’s claims', async () => {
    const userId = await addStaff(backend, 'ada@example.com')
    const client = clientFor(backend)
    const { data, error } = await client.auth.signInWithPassword({
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(error).toBeNull()
    expect(data.user?.id).toBe(userId)
    const claims = decodeJwt(data.session?.access_token ?? '')
    expect(Object.keys(claims).sort()).toEqual(
      [
        'aal',
        'amr',
        'app_metadata',
        'aud',
        'email',
        'exp',
        'iat',
        'is_anonymous',
        'iss',
        'phone',
        'role',
        'session_id',
        'sub',
        'user_metadata',
      ].sort(),
    )
    expect(claims).toMatchObject({
      sub: userId,
      aud: 'authenticated',
      role: 'authenticated',
      aal: 'aal1',
      email: 'ada@example.com',
      is_anonymous: false,
      iss: `${backend.url}/auth/v1`,
    })
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }])
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' })
  })

  it('before the second factor, staff read no row and change none', async () => {
    const client = clientFor(backend)
    await client.auth.signInWithPassword({ email: 'ada@example.com', password: PASSWORD })
    const read = await client.from('contact_submissions').select('id, sealed')
    expect(read).toMatchObject({ error: null, data: [] })
    const update = await client
      .from('contact_submissions')
      .update({ status: 'responded' })
      .eq('id', rowId)
      .select('id')
    expect(update).toMatchObject({ error: null, data: [] })
  })

  it('a wrong TOTP code is refused; the right one raises the session to aal2 and reads the sealed rows', async () => {
    const client = clientFor(backend)
    await client.auth.signInWithPassword({ email: 'ada@example.com', password: PASSWORD })
    const enrolled = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Ada’s phone',
    })
    expect(enrolled.error).toBeNull()
    expect(enrolled.data?.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/)
    expect(enrolled.data?.totp.uri).toMatch(/^otpauth:\/\/totp\//)
    const factorId = enrolled.data?.id ?? ''
    const secret = enrolled.data?.totp.secret ?? ''

    const first = await client.auth.mfa.challenge({ factorId })
    const wrongCode = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0')
    const wrong = await client.auth.mfa.verify({
      factorId,
      challengeId: first.data?.id ?? '',
      code: wrongCode,
    })
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' })

    const second = await client.auth.mfa.challenge({ factorId })
    const verified = await client.auth.mfa.verify({
      factorId,
      challengeId: second.data?.id ?? '',
      code: totpCode(secret),
    })
    expect(verified.error).toBeNull()
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })
    expect(decodeJwt(verified.data?.access_token ?? '').amr).toEqual([
      { method: 'totp', timestamp: expect.any(Number) },
      { method: 'password', timestamp: expect.any(Number) },
    ])

    const read = await client
      .from('contact_submissions')
      .select('id, key_id, sealed, status, created_at, responded_at, completed_at')
      .order('created_at', { ascending: false })
    expect(read.error).toBeNull()
    expect(read.data).toHaveLength(1)
    expect(read.data?.[0]).toMatchObject({ id: rowId, status: 'new', responded_at: null })
    expect(read.data?.[0]?.sealed).toMatch(/^-----BEGIN AGE ENCRYPTED FILE-----/)

    const user = await client.auth.getUser()
    expect(user.data.user?.factors).toEqual([
      expect.objectContaining({ id: factorId, factor_type: 'totp', status: 'verified' }),
    ])
  })

  it('at aal2 staff set the status (the database stamps the time), and nothing else', async () => {
    const client = clientFor(backend)
    await client.auth.signInWithPassword({ email: 'ada@example.com', password: PASSWORD })
    const factors = await client.auth.mfa.listFactors()
    const factorId = factors.data?.totp[0]?.id ?? ''
    // The secret is not shown again after enrolment: read it as an authenticator app keeps it.
    const [factor] = await backend.db.query<{ secret: string }>(
      'select secret from auth.mfa_factors where id = $1',
      [factorId],
    )
    const challenge = await client.auth.mfa.challenge({ factorId })
    // The code of the previous test may still be the current one, and a code is accepted once:
    // the authenticator's next code (one step ahead is within the window).
    const raised = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? '',
      code: totpCode(factor?.secret ?? '', Date.now() + 30_000),
    })
    expect(raised.error).toBeNull()

    const updated = await client
      .from('contact_submissions')
      .update({ status: 'responded' })
      .eq('id', rowId)
      .select('id, status, responded_at')
      .single()
    expect(updated.error).toBeNull()
    expect(updated.data).toMatchObject({ id: rowId, status: 'responded' })
    expect(updated.data?.responded_at).not.toBeNull()

    const sealedChange = await client
      .from('contact_submissions')
      .update({ sealed: 'tampered' })
      .eq('id', rowId)
    expect(sealedChange.error).toMatchObject({ code: '42501' })
    // The grants refuse it on PostgREST; the stand-in emulates no DELETE (no client sends one).
    const removal = await client.from('contact_submissions').delete().eq('id', rowId)
    expect(removal.error).toMatchObject({ code: oracle ? '42501' : 'PGRST127' })
    const times = await client.from('inbox_response_times').select('responded')
    expect(times).toMatchObject({ error: null, data: [{ responded: 1 }] })
  })

  it('a refresh keeps aal2; signing out kills the refresh token', async () => {
    const client = clientFor(backend)
    await addStaff(backend, 'bo@example.com')
    await signInWithSecondFactor(client, 'bo@example.com')
    const before = (await client.auth.getSession()).data.session
    const refreshed = await client.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    expect(refreshed.data.session?.refresh_token).not.toBe(before?.refresh_token)
    expect(decodeJwt(refreshed.data.session?.access_token ?? '').aal).toBe('aal2')

    const lastRefreshToken = refreshed.data.session?.refresh_token ?? ''
    expect((await client.auth.signOut()).error).toBeNull()
    const afterSignOut = await clientFor(backend).auth.refreshSession({
      refresh_token: lastRefreshToken,
    })
    expect(afterSignOut.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
  })

  it('removed from the staff list, the same aal2 token reads nothing on the next request', async () => {
    const client = clientFor(backend)
    await addStaff(backend, 'cy@example.com')
    await signInWithSecondFactor(client, 'cy@example.com')
    expect((await client.from('contact_submissions').select('id')).data).toHaveLength(1)
    const admin = clientFor(backend, backend.serviceRoleKey)
    expect(await admin.rpc('remove_staff_member', { email: 'cy@example.com' })).toMatchObject({
      error: null,
      data: true,
    })
    expect(await client.from('contact_submissions').select('id')).toMatchObject({
      error: null,
      data: [],
    })
  })

  it('a wrong password and an unknown email answer alike: 400 invalid_credentials', async () => {
    const client = clientFor(backend)
    const wrong = await client.auth.signInWithPassword({
      email: 'ada@example.com',
      password: 'nope',
    })
    const unknown = await client.auth.signInWithPassword({
      email: 'nobody@example.com',
      password: PASSWORD,
    })
    for (const { error } of [wrong, unknown]) {
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      })
    }
  })

  it('sign-ups and anonymous sign-ins are refused as GoTrue refuses them when disabled', async () => {
    const client = clientFor(backend)
    const signUp = await client.auth.signUp({ email: 'eve@example.com', password: PASSWORD })
    expect(signUp.error).toMatchObject({ status: 422, code: 'signup_disabled' })
    const anonymous = await client.auth.signInAnonymously()
    expect(anonymous.error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled' })
    const [count] = await backend.db.query<{ n: number }>(
      `select count(*)::int as n from auth.users where email = 'eve@example.com' or is_anonymous`,
    )
    expect(count?.n).toBe(0)
  })

  it('the anon key cannot use the admin API', async () => {
    const result = await clientFor(backend).auth.admin.createUser({
      email: 'mallory@example.com',
      password: PASSWORD,
    })
    expect(result.error).toMatchObject({ status: 403, code: 'not_admin' })
  })

  it('accepts a TOTP code once: the code that raised one session does not raise a second sign-in', async () => {
    await addStaff(backend, 'di@example.com')
    const { factorId, secret, code } = await signInWithSecondFactor(
      clientFor(backend),
      'di@example.com',
    )
    const second = clientFor(backend)
    const signedIn = await second.auth.signInWithPassword({
      email: 'di@example.com',
      password: PASSWORD,
    })
    expect(signedIn.error).toBeNull()
    const challenge = await second.auth.mfa.challenge({ factorId })
    const replayed = await second.auth.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? '',
      code,
    })
    expect(replayed.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    })
    const level = await second.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(level.data?.currentLevel).toBe('aal1')

    const retry = await second.auth.mfa.challenge({ factorId })
    const next = await second.auth.mfa.verify({
      factorId,
      challengeId: retry.data?.id ?? '',
      code: totpCode(secret, Date.now() + 30_000),
    })
    expect(next.error).toBeNull()
  })

  it('refuses passwords over 72 bytes (bcrypt reads no further) where they are set and at sign-in', async () => {
    const admin = clientFor(backend, backend.serviceRoleKey)
    const email = 'long@example.com'
    // Bytes, not characters: 25 euro signs are 75 bytes.
    for (const password of ['p'.repeat(73), '€'.repeat(25), 'x'.repeat(900_000)]) {
      const created = await admin.auth.admin.createUser({ email, password, email_confirm: true })
      expect(created.error).toMatchObject({
        status: 400,
        code: 'validation_failed',
        message: 'Password cannot be longer than 72 characters',
      })
    }
    const longest = `${'p'.repeat(60)}${'ß'.repeat(6)}` // 72 bytes
    handled(longest)
    const created = await admin.auth.admin.createUser({
      email,
      password: longest,
      email_confirm: true,
    })
    expect(created.error).toBeNull()
    const client = clientFor(backend)
    expect((await client.auth.signInWithPassword({ email, password: longest })).error).toBeNull()
    for (const password of [`${longest} and any ending`, 'x'.repeat(900_000)]) {
      const { error } = await client.auth.signInWithPassword({ email, password })
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials' })
    }
  })

  it('answers a NUL character (which PostgreSQL cannot store in text) with 4xx, never 500', async () => {
    const client = clientFor(backend)
    const signIn = await client.auth.signInWithPassword({
      email: 'ada\u0000@example.com',
      password: PASSWORD,
    })
    expect(signIn.error).toMatchObject({ status: 400, code: 'invalid_credentials' })
    const refresh = await client.auth.refreshSession({ refresh_token: 'token\u0000'.repeat(6) })
    expect(refresh.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Refresh token is not valid',
    })
    const admin = clientFor(backend, backend.serviceRoleKey)
    const created = await admin.auth.admin.createUser({
      email: 'nul\u0000@example.com',
      password: PASSWORD,
    })
    expect(created.error).toMatchObject({ status: 400, code: 'validation_failed' })

    await addStaff(backend, 'ed@example.com')
    await client.auth.signInWithPassword({ email: 'ed@example.com', password: PASSWORD })
    const enrolled = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'phone\u0000',
    })
    expect(enrolled.error).toMatchObject({ status: 400, code: 'validation_failed' })
  })

  /** A second device of the same account: a password, then the code the app shows 30 s on. */
  async function signInOnAnotherDevice(email: string, factorId: string, secret: string) {
    const other = clientFor(backend)
    expect((await other.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
    const challenge = await other.auth.mfa.challenge({ factorId })
    const code = totpCode(secret, Date.now() + 30_000)
    const verified = await other.auth.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? '',
      code,
    })
    expect(verified.error).toBeNull()
    const session = (await other.auth.getSession()).data.session
    handled(code, session?.access_token, session?.refresh_token)
    return { other, refreshToken: session?.refresh_token ?? '' }
  }

  it('"Sign out everywhere" (global) ends every session of the account: the other device’s still unexpired token reads nothing on its next request', async () => {
    await addStaff(backend, 'gus@example.com')
    const here = clientFor(backend)
    const { factorId, secret } = await signInWithSecondFactor(here, 'gus@example.com')
    const { other, refreshToken } = await signInOnAnotherDevice('gus@example.com', factorId, secret)
    expect((await other.from('contact_submissions').select('id')).data).toHaveLength(1)
    const otherAccess = (await other.auth.getSession()).data.session?.access_token ?? ''

    expect((await here.auth.signOut({ scope: 'global' })).error).toBeNull()
    expect(
      (await clientFor(backend).auth.refreshSession({ refresh_token: refreshToken })).error,
    ).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
    // The access token is a JWT that has not expired: the database asks auth.sessions.
    expect(decodeJwt(otherAccess).exp ?? 0).toBeGreaterThan(Date.now() / 1000)
    expect(await other.from('contact_submissions').select('id')).toMatchObject({
      error: null,
      data: [],
    })
    expect(await other.rpc('inbox_access')).toMatchObject({ error: null, data: false })
    // Auth itself says the session is gone, which is how the inbox tells it from a removal.
    const user = await fetch(`${backend.url}/auth/v1/user`, {
      headers: { apikey: backend.anonKey, authorization: `Bearer ${otherAccess}` },
    })
    expect(user.status).toBe(403)
    expect(await user.json()).toMatchObject({ error_code: 'session_not_found' })
    // A browser reads that code only through the API version header, which CORS must expose
    // (GoTrue's handler does): auth-js then takes it as a deleted session and signs out.
    const fromInbox = await fetch(`${backend.url}/auth/v1/user`, {
      headers: {
        apikey: backend.anonKey,
        authorization: `Bearer ${otherAccess}`,
        origin: 'http://127.0.0.1:4174',
        'x-supabase-api-version': '2024-01-01',
      },
    })
    expect(fromInbox.headers.get('access-control-expose-headers')).toMatch(
      /X-Supabase-Api-Version/i,
    )
    expect(fromInbox.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(await fromInbox.json()).toMatchObject({ code: 'session_not_found' })
  })

  it('"Sign out" (local) ends this session only: the other device still reads', async () => {
    await addStaff(backend, 'kit@example.com')
    const here = clientFor(backend)
    const { factorId, secret } = await signInWithSecondFactor(here, 'kit@example.com')
    const { other } = await signInOnAnotherDevice('kit@example.com', factorId, secret)
    const hereRefresh = (await here.auth.getSession()).data.session?.refresh_token ?? ''
    const hereAccess = (await here.auth.getSession()).data.session?.access_token ?? ''
    expect((await here.auth.signOut({ scope: 'local' })).error).toBeNull()
    expect(
      (await clientFor(backend).auth.refreshSession({ refresh_token: hereRefresh })).error,
    ).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
    const stale = createClient(backend.url, backend.anonKey, {
      global: { headers: { authorization: `Bearer ${hereAccess}` } },
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: NoRealtimeSocket as never },
    })
    expect((await stale.from('contact_submissions').select('id')).data).toEqual([])
    expect((await other.from('contact_submissions').select('id')).data).toHaveLength(1)
    expect((await other.auth.refreshSession()).error).toBeNull()
  })

  it('signing out with "others" keeps this session and ends the rest', async () => {
    await addStaff(backend, 'hal@example.com')
    const here = clientFor(backend)
    const { factorId, secret } = await signInWithSecondFactor(here, 'hal@example.com')
    const { other } = await signInOnAnotherDevice('hal@example.com', factorId, secret)
    expect((await here.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect((await here.from('contact_submissions').select('id')).data).toHaveLength(1)
    expect((await other.from('contact_submissions').select('id')).data).toEqual([])
  })

  it('unenrolling the last verified factor drops the session to aal1: its refresh says so and reads nothing', async () => {
    await addStaff(backend, 'liv@example.com')
    const client = clientFor(backend)
    const { factorId } = await signInWithSecondFactor(client, 'liv@example.com')
    expect((await client.from('contact_submissions').select('id')).data).toHaveLength(1)
    expect((await client.auth.mfa.unenroll({ factorId })).error).toBeNull()
    const refreshed = await client.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    const token = refreshed.data.session?.access_token ?? ''
    handled(token, refreshed.data.session?.refresh_token)
    const claims = decodeJwt(token) as { aal: string; amr: { method: string }[] }
    expect(claims.aal).toBe('aal1')
    expect(claims.amr.map((entry) => entry.method)).toEqual(['password'])
    expect(await client.from('contact_submissions').select('id')).toMatchObject({
      error: null,
      data: [],
    })
  })

  it('changes the password at aal2 within the rules, ends the other sessions and keeps this one', async () => {
    const email = 'ida@example.com'
    await addStaff(backend, email)
    const here = clientFor(backend)
    expect((await here.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
    const enrolled = await here.auth.mfa.enroll({ factorType: 'totp' })
    const factorId = enrolled.data?.id ?? ''
    const secret = enrolled.data?.totp.secret ?? ''
    handled(secret)
    const newPassword = 'a new password for ida, long enough'
    handled(newPassword)
    // Before the factor is verified the account has no MFA: a first password may be set at aal1.
    // With it verified, aal1 is refused in GoTrue's words.
    const challenge = await here.auth.mfa.challenge({ factorId })
    const code = totpCode(secret)
    handled(code)
    expect(
      (await here.auth.mfa.verify({ factorId, challengeId: challenge.data?.id ?? '', code })).error,
    ).toBeNull()
    const aal1 = clientFor(backend)
    expect((await aal1.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
    expect((await aal1.auth.updateUser({ password: newPassword })).error).toMatchObject({
      status: 401,
      code: 'insufficient_aal',
    })

    const { other } = await signInOnAnotherDevice(email, factorId, secret)
    expect((await here.auth.updateUser({ password: '€'.repeat(25) })).error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Password cannot be longer than 72 characters',
    })
    expect((await here.auth.updateUser({ password: 'short' })).error).toMatchObject({
      status: 422,
      code: 'weak_password',
    })
    expect((await here.auth.updateUser({ password: PASSWORD })).error).toMatchObject({
      status: 422,
      code: 'same_password',
    })
    expect((await here.auth.updateUser({ password: newPassword })).error).toBeNull()

    expect((await here.from('contact_submissions').select('id')).data).toHaveLength(1)
    expect((await here.auth.refreshSession()).error).toBeNull()
    expect((await other.from('contact_submissions').select('id')).data).toEqual([])
    const old = await clientFor(backend).auth.signInWithPassword({ email, password: PASSWORD })
    expect(old.error).toMatchObject({ status: 400, code: 'invalid_credentials' })
    const fresh = await clientFor(backend).auth.signInWithPassword({ email, password: newPassword })
    expect(fresh.error).toBeNull()
  }, 30_000)

  it('refuses the refresh of a session older than the timebox ([auth.sessions] timebox, 30 days)', async () => {
    await addStaff(backend, 'jo@example.com')
    const client = clientFor(backend)
    await signInWithSecondFactor(client, 'jo@example.com')
    expect((await client.auth.refreshSession()).error).toBeNull()
    const session = (await client.auth.getSession()).data.session
    const sessionId = String(decodeJwt(session?.access_token ?? '').session_id)
    await backend.db.query(
      `update auth.sessions set created_at = now() - interval '30 days 1 minute' where id = $1`,
      [sessionId],
    )
    const refreshed = await clientFor(backend).auth.refreshSession({
      refresh_token: session?.refresh_token ?? '',
    })
    expect(refreshed.error).toMatchObject({ status: 400, code: 'session_expired' })
  })

  it('writes no password, token, TOTP secret or code to its log or the console', () => {
    // The tests above signed in, enrolled and verified: there were secrets to leak.
    expect(secretsHandled.size).toBeGreaterThan(4)
    // …and the request log was recorded: there were lines to leak into.
    expect(written.some((line) => line.includes('/auth/v1/token'))).toBe(true)
    const leaked = [...secretsHandled].filter((secret) =>
      written.some((line) => line.includes(secret)),
    )
    expect(leaked).toEqual([])
  })
})

describe('password guessing', () => {
  let started: Awaited<ReturnType<ReturnType<typeof testBackends>[number]['start']>>

  beforeAll(async () => {
    const [embedded] = testBackends({ authSettings: { signInsPerWindow: 3 } })
    started = (await embedded?.start()) as typeof started
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
  })

  it('answers 429 over_request_rate_limit once an address has used its sign-in attempts', async () => {
    const client = clientFor(started.backend)
    const attempt = () =>
      client.auth.signInWithPassword({ email: 'ada@example.com', password: 'guess' })
    for (let tries = 0; tries < 3; tries += 1) {
      expect((await attempt()).error).toMatchObject({ status: 400, code: 'invalid_credentials' })
    }
    expect((await attempt()).error).toMatchObject({ status: 429, code: 'over_request_rate_limit' })
  })
})
