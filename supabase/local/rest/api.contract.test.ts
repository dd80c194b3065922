// @vitest-environment node
import { randomUUID } from 'node:crypto'
import { createClient } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { answerOf, type Answer } from './expected-differences'
import type { LocalBackend } from '../local-backend'
import {
  NoRealtimeSocket,
  oracleUnavailable,
  registerTestKey,
  reloadSchemaCache,
  testBackends,
} from '../test-support'

/**
 * The stand-in answers the site's one call as Supabase (gateway + PostgREST v14) does, on both
 * databases it runs on: the embedded PGlite and a real PostgreSQL 15, with the migrations applied
 * the same way; and the same tests hold the real PostgREST 12.0.2 (behind the stand-in's gateway)
 * to the same answers, except for the differences real-postgrest-differences.json lists.
 * Expected values: shared/reference/supabase-rest-contract.md.
 */

const TABLE_PATH = '/rest/v1/contact_submissions'
const JSON_UTF8 = 'application/json; charset=utf-8'
/** The Supabase CLI's published local JWT secret, written out: the contract is with that value. */
const CLI_DEMO_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
const OTHER_SECRET = 'a-different-secret-that-is-also-at-least-32-characters'
/** The published keys of the Supabase CLI (pkg/config/config_test.go). */
const CLI_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'
const CLI_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'

const sign = (claims: Record<string, unknown>, secret = CLI_DEMO_SECRET) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret))

const backends = testBackends()
if (oracleUnavailable) describe.skip(oracleUnavailable, () => it('runs on linux x64 only'))

describe.each(backends)('POST /rest/v1/contact_submissions on $name', ({ start, oracle }) => {
  let started: Awaited<ReturnType<(typeof backends)[number]['start']>>
  let backend: LocalBackend
  let key: Awaited<ReturnType<typeof registerTestKey>>
  const row = (overrides: Record<string, unknown> = {}) => key.sealedRow(overrides)

  beforeAll(async () => {
    started = await start()
    backend = started.backend
    key = await registerTestKey(backend.db)
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
  })
  afterEach(async () => {
    await backend.db.query('delete from public.contact_submissions')
  })

  function post(body: unknown, headers: Record<string, string | null> = {}, path = TABLE_PATH) {
    const merged = Object.entries({
      apikey: backend.anonKey,
      Authorization: `Bearer ${backend.anonKey}`,
      'Content-Type': 'application/json',
      ...headers,
    }).filter((entry): entry is [string, string] => entry[1] !== null)
    return fetch(`${backend.url}${path}`, {
      method: 'POST',
      headers: merged,
      body:
        typeof body === 'string'
          ? body
          : body instanceof Uint8Array
            ? new Uint8Array(body) // raw bytes, for bodies that are not valid UTF-8
            : JSON.stringify(body),
    })
  }

  /**
   * Expects `standIn`, the stand-in's answer, or on the oracle the answer the differences file
   * lists under `id` for the real PostgREST 12.0.2 (only the named headers are compared).
   */
  async function expectAnswer(id: string, response: Response, standIn: Answer) {
    const expected = started.expected(id, standIn)
    expect(await answerOf(response, Object.keys(expected.headers ?? {}))).toEqual(expected)
    return expected
  }

  async function expectError(
    response: Response,
    status: number,
    expected: Record<string, unknown>,
  ) {
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toBe(JSON_UTF8)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual({ details: null, hint: null, ...expected })
  }

  const rowCount = async () =>
    (
      await backend.db.query<{ n: number }>(
        'select count(*)::int as n from public.contact_submissions',
      )
    )[0]?.n

  /** Runs `check` while a trigger runs `body` (PL/pgSQL) before each insert, then drops the trigger. */
  async function whileTriggerRaises(name: string, body: string, check: () => Promise<void>) {
    await backend.db.exec(`
      create function public.${name}() returns trigger language plpgsql as $$
      begin
        ${body}
      end $$;
      create trigger ${name} before insert on public.contact_submissions
        for each row execute function public.${name}();`)
    try {
      await check()
    } finally {
      await backend.db.exec(
        `drop trigger ${name} on public.contact_submissions; drop function public.${name}();`,
      )
    }
  }

  describe('success', () => {
    it('answers 201 with an empty body, Content-Range */* and no Content-Type, and stores the sealed row', async () => {
      const sent = row()
      const response = await post(sent, { Origin: 'http://127.0.0.1:4173' })
      expect(response.status).toBe(201)
      expect(await response.text()).toBe('')
      expect(response.headers.get('content-range')).toBe('*/*')
      expect(response.headers.get('content-type')).toBeNull()
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range')
      const stored = await backend.db.query(
        `select id, key_id, sealed, '\\x' || encode(mailbox_hash, 'hex') as mailbox_hash, status
           from public.contact_submissions`,
      )
      expect(stored).toEqual([{ ...sent, status: 'new' }])
    })

    it('signs the Supabase CLI demo keys with the demo secret', () => {
      expect([backend.anonKey, backend.serviceRoleKey]).toEqual([
        CLI_ANON_KEY,
        CLI_SERVICE_ROLE_KEY,
      ])
    })

    it('inserts with only the apikey header, or the key as a URL parameter (the gateway)', async () => {
      expect((await post(row(), { Authorization: null })).status).toBe(201)
      expect(
        (await post(row(), { apikey: null }, `${TABLE_PATH}?apikey=${backend.anonKey}`)).status,
      ).toBe(201)
    })

    it('ignores an empty Prefer header and honours return=minimal', async () => {
      expect((await post(row(), { Prefer: '' })).status).toBe(201)
      expect((await post(row(), { Prefer: 'return=minimal' })).status).toBe(201)
    })

    it('lets the service_role key insert and read the row back (return=representation)', async () => {
      const sent = row()
      const response = await post(sent, {
        apikey: backend.serviceRoleKey,
        Authorization: `Bearer ${backend.serviceRoleKey}`,
        Prefer: 'return=representation',
      })
      expect(response.status).toBe(201)
      expect(response.headers.get('content-type')).toBe(JSON_UTF8)
      expect(await response.json()).toMatchObject([{ id: sent.id, key_id: key.keyId }])
    })
  })

  describe('the database decides', () => {
    it('refuses a second insert with the same id with 409 / 23505 and keeps one row', async () => {
      const sent = row()
      expect((await post(sent)).status).toBe(201)
      await expectError(await post(sent), 409, {
        code: '23505',
        message: 'duplicate key value violates unique constraint "contact_submissions_pkey"',
      })
      expect(await rowCount()).toBe(1)
    })

    it('refuses a malformed armor with 400 / 23514', async () => {
      await expectError(await post(row({ sealed: 'hello' })), 400, {
        code: '23514',
        message:
          'new row for relation "contact_submissions" violates check constraint "contact_submissions_sealed_format_check"',
      })
    })

    it('refuses an unknown key_id with 409 / 23503', async () => {
      const response = await post(row({ key_id: '0123456789abcdef' }))
      expect(response.status).toBe(409)
      expect(((await response.json()) as { code: string }).code).toBe('23503')
    })

    it('refuses a column anon may not write with 401 / 42501 and WWW-Authenticate: Bearer', async () => {
      const response = await post(row({ status: 'completed' }))
      await expectError(response, 401, {
        code: '42501',
        message: 'permission denied for table contact_submissions',
      })
      expect(response.headers.get('www-authenticate')).toBe('Bearer')
    })

    it('refuses to return the inserted row to anon (return=representation needs SELECT)', async () => {
      await expectError(await post(row(), { Prefer: 'return=representation' }), 401, {
        code: '42501',
        message: 'permission denied for table contact_submissions',
      })
      expect(await rowCount()).toBe(0)
    })

    it.each([
      { method: 'GET', path: TABLE_PATH },
      { method: 'PATCH', path: `${TABLE_PATH}?id=eq.${randomUUID()}` },
    ])('refuses $method for anon as its grants do (401 / 42501)', async ({ method, path }) => {
      const response = await fetch(`${backend.url}${path}`, {
        method,
        headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
        body: method === 'GET' ? null : '{"status":"declined"}',
      })
      await expectError(response, 401, {
        code: '42501',
        message: 'permission denied for table contact_submissions',
      })
    })

    it.each([
      { method: 'PATCH', command: 'UPDATE' },
      { method: 'DELETE', command: 'DELETE' },
    ])(
      'refuses an unfiltered $method with 400 / 21000, as Supabase’s safeupdate does',
      async ({ method, command }) => {
        const response = await fetch(`${backend.url}${TABLE_PATH}`, {
          method,
          headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
          body: method === 'PATCH' ? '{"status":"declined"}' : null,
        })
        await expectAnswer(`api/safeupdate/${method}`, response, {
          status: 400,
          body: {
            code: '21000',
            message: `${command} requires a WHERE clause`,
            details: null,
            hint: null,
          },
        })
      },
    )
  })

  describe('abuse limits (the database refuses, the stand-in answers as PostgREST does)', () => {
    beforeAll(async () => {
      await backend.db.query('update private.contact_limits set network_limit = 2')
    })
    afterAll(async () => {
      await backend.db.query('update private.contact_limits set network_limit = 5')
    })
    afterEach(async () => {
      await backend.db.query('delete from private.contact_rate_events')
    })

    it('refuses an array insert with 400 contact_one_row (one row per request)', async () => {
      await expectError(await post([row(), row()]), 400, {
        code: 'contact_one_row',
        message:
          'One submission per request: the contact form inserts a single row (limit: 1 row per insert).',
      })
      expect(await rowCount()).toBe(0)
    })

    it('answers 429 with Retry-After past the per-network limit, other networks and replays unaffected', async () => {
      const network = { 'CF-Connecting-IP': '198.51.100.23' }
      const first = row()
      expect((await post(first, network)).status).toBe(201)
      expect((await post(row(), { 'CF-Connecting-IP': '198.51.100.99' })).status).toBe(201)
      const refused = await post(row(), network)
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(refused.headers.get('access-control-allow-origin')).toBe('*')
      expect(await refused.json()).toMatchObject({ code: 'contact_network_limit' })
      expect((await post(row(), { 'CF-Connecting-IP': '203.0.113.50' })).status).toBe(201)
      expect((await post(first, network)).status).toBe(409)
    })
  })

  describe('request settings, as PostgREST sets them', () => {
    beforeAll(async () => {
      await backend.db.exec(`
        create table public.request_probe (role text, headers json, claims json);
        create function public.request_probe() returns trigger language plpgsql security definer as $$
        begin
          insert into public.request_probe values (current_setting('role'),
            current_setting('request.headers', true)::json, current_setting('request.jwt.claims', true)::json);
          return new;
        end $$;
        create trigger request_probe before insert on public.contact_submissions
          for each row execute function public.request_probe();`)
    })
    afterAll(async () => {
      await backend.db.exec(`drop trigger request_probe on public.contact_submissions;
        drop function public.request_probe(); drop table public.request_probe;`)
    })
    afterEach(async () => {
      await backend.db.query('delete from public.request_probe')
    })
    const probe = async () =>
      (
        await backend.db.query<{
          role: string
          headers: Record<string, string>
          claims: Record<string, unknown>
        }>('select * from public.request_probe')
      )[0]

    it('runs as the role of the JWT, with its claims and the lowercased request headers', async () => {
      expect((await post(row(), { 'X-Client-Info': 'supabase-js/2' })).status).toBe(201)
      const seen = await probe()
      expect(seen?.role).toBe('anon')
      expect(seen?.claims).toMatchObject({ role: 'anon', iss: 'supabase-demo' })
      expect(seen?.headers).toMatchObject({
        'x-client-info': 'supabase-js/2',
        'content-type': 'application/json',
      })
    })

    it('passes cf-connecting-ip through only when the client sent it', async () => {
      expect((await post(row())).status).toBe(201)
      expect((await probe())?.headers).not.toHaveProperty('cf-connecting-ip')
      await backend.db.query('delete from public.request_probe')
      expect((await post(row(), { 'CF-Connecting-IP': '203.0.113.7' })).status).toBe(201)
      expect((await probe())?.headers['cf-connecting-ip']).toBe('203.0.113.7')
    })
  })

  describe('the API role’s own settings, applied to each request as PostgREST applies them', () => {
    // A role of the test's own, granted to authenticator as Supabase's API roles are: a role's
    // settings hold for the whole server, so those of the shared test server's roles stay as they are.
    const role = `settings_probe_${randomUUID().slice(0, 8)}`
    let token: string
    const call = (name: string) =>
      post({}, { Authorization: `Bearer ${token}` }, `/rest/v1/rpc/${name}`)

    beforeAll(async () => {
      await backend.db.exec(`
        create role ${role} nologin;
        grant ${role} to authenticator;
        alter role ${role} set statement_timeout = '500ms';
        alter role ${role} set lock_timeout = '400ms';
        create function public.settings_probe() returns json language sql as $$
          select json_build_object('statement_timeout', current_setting('statement_timeout'),
                                   'lock_timeout', current_setting('lock_timeout')) $$;
        create function public.slow_probe() returns integer language sql as $$
          select pg_sleep(1.5);
          select 1 $$;
        grant execute on function public.settings_probe(), public.slow_probe() to ${role};`)
      await reloadSchemaCache(backend.db)
      await backend.db.query(`notify pgrst, 'reload config'`)
      token = await sign({ role })
      // The real PostgREST reads role settings when it reloads its configuration.
      const until = Date.now() + 10_000
      const applied = async () => {
        const response = await call('settings_probe')
        return response.status === 200 && !(await response.text()).includes('"0"')
      }
      while (Date.now() < until && !(await applied()))
        await new Promise((resolve) => setTimeout(resolve, 100))
    })
    afterAll(async () => {
      await backend.db
        .exec(`drop function public.settings_probe(); drop function public.slow_probe();
        drop owned by ${role}; drop role ${role};`)
    })

    it('runs a request with its role’s statement and lock timeouts', async () => {
      const response = await call('settings_probe')
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ statement_timeout: '500ms', lock_timeout: '400ms' })
    })

    it('answers a statement the timeout cancelled with 500 / 57014, as PostgREST does', async () => {
      await expectError(await call('slow_probe'), 500, {
        code: '57014',
        message: 'canceling statement due to statement timeout',
      })
    })
  })

  describe("raise sqlstate 'PGRST' chooses the whole answer", () => {
    it('answers with the status, headers and body the database gave', async () => {
      const raise = `raise sqlstate 'PGRST' using
        message = '{"code":"LIMIT","message":"Too many submissions","hint":"Try later"}',
        detail = '{"status":429,"headers":{"Retry-After":"120"}}';`
      await whileTriggerRaises('pgrst_probe', raise, async () => {
        const response = await post(row())
        await expectError(response, 429, {
          code: 'LIMIT',
          message: 'Too many submissions',
          hint: 'Try later',
        })
        expect(response.headers.get('retry-after')).toBe('120')
      })
    })
  })

  describe("a 'PGRST' raise PostgREST cannot read is its 500 PGRST121", () => {
    it.each([
      {
        case: 'a DETAIL without headers',
        detail: `detail = '{"status":400}'`,
        details: `Invalid JSON value for DETAIL: '{"status":400}'`,
      },
      {
        case: 'no DETAIL',
        detail: null,
        details: 'DETAIL is missing in the RAISE statement',
      },
    ])('answers $case with 500 PGRST121, never the status it asked for', async (raised) => {
      const raise = `raise sqlstate 'PGRST' using
        message = '{"code":"LIMIT","message":"Too many submissions"}'${raised.detail ? `, ${raised.detail}` : ''};`
      await whileTriggerRaises('pgrst_probe', raise, async () => {
        await expectAnswer(`api/pgrst-raise/${raised.case}`, await post(row()), {
          status: 500,
          body: {
            code: 'PGRST121',
            message: 'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error',
            details: raised.details,
            hint: "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.",
          },
        })
      })
      expect(await rowCount()).toBe(0)
    })
  })

  describe('storage faults', () => {
    it('answers a file error, which PostgreSQL reports as 42501, with 503 and Retry-After, not 401', async () => {
      const raise = `raise exception using errcode = '42501',
        message = 'could not create file "base/5/16385_fsm": Permission denied';`
      await whileTriggerRaises('disk_probe', raise, async () => {
        await expectAnswer('api/storage-fault', await post(row()), {
          status: 503,
          body: {
            code: 'PGRST001',
            message: 'Database client error. Retrying the connection.',
            details:
              'The database cannot write to its data folder: could not create file "base/5/16385_fsm": Permission denied',
            hint: null,
          },
          headers: { 'retry-after': '5', 'www-authenticate': null },
        })
      })
      expect((await post(row())).status).toBe(201)
    })
  })

  describe('API keys (the gateway)', () => {
    it('refuses a request without an API key with 401 and the hosted message', async () => {
      const response = await post(row(), { apikey: null, Authorization: null })
      expect(response.status).toBe(401)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toEqual({
        message: 'No API key found in request',
        hint: 'No `apikey` request header or url param was found.',
      })
    })

    it.each([
      { case: 'an unknown string', key: async () => 'not-a-key' },
      { case: 'a key signed with another secret', key: () => sign({ role: 'anon' }, OTHER_SECRET) },
      { case: 'a signed token for another role', key: () => sign({ role: 'authenticated' }) },
    ])('refuses $case as API key with 401 Invalid API key', async ({ key: apikey }) => {
      const response = await post(row(), { apikey: await apikey() })
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({
        message: 'Invalid API key',
        hint: 'Double check your Supabase `anon` or `service_role` API key.',
      })
    })
  })

  describe('JWT (PostgREST)', () => {
    const now = () => Math.floor(Date.now() / 1000)
    it.each([
      {
        case: 'an empty bearer token',
        token: async () => '',
        code: 'PGRST301',
        message: 'Empty JWT is sent in Authorization header',
        details: null,
      },
      {
        case: 'a token that is not a JWT',
        token: async () => 'abc',
        code: 'PGRST301',
        message: 'Expected 3 parts in JWT; got 1',
        details: null,
      },
      {
        case: 'a token with a bad signature',
        token: () => sign({ role: 'anon' }, OTHER_SECRET),
        code: 'PGRST301',
        message: 'No suitable key or wrong key type',
        details: 'None of the keys was able to decode the JWT',
      },
      {
        case: 'an unsigned token (alg none)',
        token: async () =>
          `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.`,
        code: 'PGRST301',
        message: 'Wrong or unsupported encoding algorithm',
        details: "JWT is unsecured but expected 'alg' was not 'none'",
      },
      {
        case: 'an expired token',
        token: () => sign({ role: 'anon', exp: now() - 60 }),
        code: 'PGRST303',
        message: 'JWT expired',
        details: null,
      },
      {
        case: 'a token issued in the future (iat past the 30 s skew)',
        token: () => sign({ role: 'anon', iat: now() + 90 }),
        code: 'PGRST303',
        message: 'JWT issued at future',
        details: null,
      },
      {
        case: 'a token not valid yet (nbf past the 30 s skew)',
        token: () => sign({ role: 'anon', nbf: now() + 90 }),
        code: 'PGRST303',
        message: 'JWT not yet valid',
        details: null,
      },
    ])('refuses $case with 401 $code', async ({ case: name, token, code, message, details }) => {
      const response = await post(row(), { Authorization: `Bearer ${await token()}` })
      const expected = await expectAnswer(`api/jwt/${name}`, response, {
        status: 401,
        body: { code, message, details, hint: null },
        headers: {
          'www-authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
        },
      })
      expect(await rowCount()).toBe(expected.status === 401 ? 0 : 1)
    })

    it.each([
      { claim: 'exp', value: -10 },
      { claim: 'iat', value: 10 },
      { claim: 'nbf', value: 10 },
    ])(
      'accepts a token whose $claim is inside the 30 s clock skew PostgREST allows',
      async ({ claim, value }) => {
        const token = await sign({ role: 'anon', [claim]: now() + value })
        expect((await post(row(), { Authorization: `Bearer ${token}` })).status).toBe(201)
      },
    )

    for (const { refusal, role, status, code, message, authenticate } of [
      {
        refusal: 'a role that does not exist',
        role: 'nobody',
        status: 401,
        code: '22023',
        message: 'role "nobody" does not exist',
        authenticate: 'Bearer',
      },
      {
        refusal: 'a role the API may not switch to (postgres)',
        role: 'postgres',
        status: 403,
        code: '42501',
        message: 'permission denied to set role "postgres"',
        authenticate: null,
      },
    ]) {
      it(`refuses ${refusal} with ${status} / ${code}`, async () => {
        const token = await sign({ role })
        await expectAnswer(
          `api/jwt/${refusal}`,
          await post(row(), { Authorization: `Bearer ${token}` }),
          {
            status,
            body: { code, message, details: null, hint: null },
            headers: { 'www-authenticate': authenticate },
          },
        )
      })
    }

    it('refuses a signed-in (authenticated) user with 403 / 42501', async () => {
      const token = await sign({ role: 'authenticated', sub: randomUUID() })
      const response = await post(row(), { Authorization: `Bearer ${token}` })
      await expectError(response, 403, {
        code: '42501',
        message: 'permission denied for table contact_submissions',
      })
      expect(response.headers.get('www-authenticate')).toBeNull()
    })
  })

  describe('bad input, answered before the database', () => {
    it('names an unknown column with PGRST204 (the alphabetically first one)', async () => {
      await expectAnswer('api/unknown-column', await post(row({ zzz: 1, nmae: 'Ada' })), {
        status: 400,
        body: {
          code: 'PGRST204',
          message: "Could not find the 'nmae' column of 'contact_submissions' in the schema cache",
          details: null,
          hint: null,
        },
      })
    })

    it.each([
      { case: 'invalid JSON', body: '{"id":' },
      { case: 'an empty body', body: '' },
    ])('refuses $case with PGRST102 Empty or invalid json', async ({ body }) => {
      await expectError(await post(body), 400, {
        code: 'PGRST102',
        message: 'Empty or invalid json',
      })
    })

    it('refuses invalid UTF-8 with 400 and stores nothing (no U+FFFD)', async () => {
      const sent = row()
      const json = JSON.stringify({ ...sent, sealed: `${sent.sealed}\u0000` }).replace(
        '\\u0000',
        '__',
      )
      const bytes = Buffer.from(json)
      bytes.set([0xc3, 0x28], bytes.indexOf('__'))
      await expectError(await post(bytes), 400, {
        code: 'PGRST102',
        message: 'Empty or invalid json',
      })
      expect(await rowCount()).toBe(0)
    })

    it('refuses a value nested 5,000 levels deep with 400, not a crash', async () => {
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`
      const response = await post(`{"id":"${randomUUID()}","sealed":${deep}}`)
      await expectAnswer('api/deeply-nested-json', response, {
        status: 400,
        body: {
          code: 'PGRST102',
          message: 'Empty or invalid json',
          details: 'JSON nested deeper than 64 levels',
          hint: null,
        },
      })
      const health = await fetch(`${backend.url}/health`)
      expect(health.status).toBe(200)
    })

    it.each([
      { case: 'an array of objects with different keys', body: '[{"id":"a"},{"sealed":"b"}]' },
      { case: 'an array of values', body: '["a","b"]' },
    ])('refuses $case with PGRST102 All object keys must match', async ({ body }) => {
      await expectError(await post(body), 400, {
        code: 'PGRST102',
        message: 'All object keys must match',
      })
    })

    it.each(['"hello"', '42', 'null'])(
      'takes the JSON value %s as an empty array, as PostgREST does: 201 and no row',
      async (body) => {
        const response = await post(body)
        expect(response.status).toBe(201)
        expect(await response.text()).toBe('')
        expect(await rowCount()).toBe(0)
      },
    )

    it('refuses a body that is not JSON by its Content-Type', async () => {
      await expectError(await post('id=1', { 'Content-Type': 'text/plain' }), 400, {
        code: 'PGRST102',
        message: 'Content-Type not acceptable: text/plain',
      })
    })

    it('answers a body over 1 MiB with 413 and a JSON error', async () => {
      const response = await post('x'.repeat(1024 * 1024 + 1))
      expect(response.status).toBe(413)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toMatchObject({ message: 'Request size limit exceeded' })
    })

    it('lets a body just under 1 MiB through to the database, which refuses the oversize armor', async () => {
      const sent = row({ sealed: '' })
      const padding = 1024 * 1024 - JSON.stringify(sent).length
      const response = await post({ ...sent, sealed: 's'.repeat(padding) })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { code: string }).code).toBe('23514')
    })

    it('answers an unknown table with a JSON 404 (PGRST205), never an empty one', async () => {
      const response = await post(row(), {}, '/rest/v1/contact_submission')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      await expectAnswer('api/unknown-table', response, {
        status: 404,
        body: {
          code: 'PGRST205',
          message: "Could not find the table 'public.contact_submission' in the schema cache",
          details: null,
          hint: null,
        },
      })
    })

    it.each([{ path: '/rest/v1/%ZZ' }, { path: '/rest/v1/contact_submissions%G1' }])(
      'answers $path (a malformed percent-escape) with the gateway’s 400, not a 5xx',
      async ({ path }) => {
        await expectAnswer('api/malformed-escape', await post(row(), {}, path), {
          status: 400,
          body: { message: 'Bad request' },
        })
        expect(await rowCount()).toBe(0)
      },
    )

    it('answers a method PostgREST does not know with 405 / PGRST117', async () => {
      const response = await fetch(`${backend.url}${TABLE_PATH}`, {
        method: 'PURGE',
        headers: { apikey: backend.anonKey },
      })
      await expectError(response, 405, {
        code: 'PGRST117',
        message: 'Unsupported HTTP method: PURGE',
      })
    })

    it('answers paths outside the REST API with a JSON 404', async () => {
      const response = await fetch(`${backend.url}/functions/v1/anything`, { method: 'POST' })
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ code: 'PGRST125' })
    })
  })

  describe('PostgREST beyond the site’s insert (service_role), held to the real one', () => {
    const asService = () => ({
      apikey: backend.serviceRoleKey,
      Authorization: `Bearer ${backend.serviceRoleKey}`,
    })
    const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      fetch(`${backend.url}${path}`, {
        method,
        headers: { ...asService(), 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    it.each([
      { method: 'POST', header: 'Content-Profile', schema: 'private' },
      { method: 'GET', header: 'Accept-Profile', schema: 'private' },
      { method: 'POST', header: 'Content-Profile', schema: 'auth' },
    ])(
      'refuses $header: $schema on $method (not an exposed schema) with 406 PGRST106',
      async ({ method, header, schema }) => {
        const response = await send(
          method,
          TABLE_PATH,
          { [header]: schema },
          method === 'POST' ? row() : undefined,
        )
        await expectAnswer(`api/profile/${schema}`, response, {
          status: 406,
          body: {
            code: 'PGRST106',
            message: `Invalid schema: ${schema}`,
            details: null,
            hint: 'Only the following schemas are exposed: public, graphql_public',
          },
        })
        expect(await rowCount()).toBe(0)
      },
    )

    it('returns only the ?select= columns of an insert with return=representation', async () => {
      const sent = row()
      const response = await send(
        'POST',
        `${TABLE_PATH}?select=id,status`,
        { Prefer: 'return=representation' },
        sent,
      )
      await expectAnswer('api/insert-select', response, {
        status: 201,
        body: [{ id: sent.id, status: 'new' }],
        headers: { 'content-range': '*/*' },
      })
    })

    it('reads as the inbox reads: columns, eq/is/not.is/gte/lte filters, order, offset and limit', async () => {
      const rows = [row(), row(), row(), row()]
      expect((await send('POST', TABLE_PATH, {}, rows)).status).toBe(201)
      const ids = rows.map((stored) => stored.id as string).sort()
      const filters = `status=eq.new&responded_at=is.null&created_at=not.is.null&id=gte.${ids[0]}&id=lte.${ids[2]}`
      const read = await send(
        'GET',
        `${TABLE_PATH}?select=id,status&${filters}&order=id.desc&offset=1&limit=5`,
        {},
      )
      await expectAnswer('api/read/inbox', read, {
        status: 200,
        body: [
          { id: ids[1], status: 'new' },
          { id: ids[0], status: 'new' },
        ],
        headers: { 'content-range': '1-2/*' },
      })
      const one = await send('GET', `${TABLE_PATH}?select=id&id=eq.${ids[3]}`, {
        Accept: 'application/vnd.pgrst.object+json',
      })
      expect(one.status).toBe(200)
      expect(await one.json()).toEqual({ id: ids[3] })
    })

    it('stamps and returns one row on a filtered PATCH with return=representation', async () => {
      const sent = row()
      expect((await send('POST', TABLE_PATH, {}, sent)).status).toBe(201)
      const patch = await send(
        'PATCH',
        `${TABLE_PATH}?id=eq.${sent.id}&select=id,status`,
        { Prefer: 'return=representation' },
        { status: 'responded' },
      )
      await expectAnswer('api/patch/representation', patch, {
        status: 200,
        body: [{ id: sent.id, status: 'responded' }],
        headers: { 'content-range': '0-0/*' },
      })
    })

    if (!oracle) {
      it.each([
        { what: 'HEAD', method: 'HEAD', path: TABLE_PATH, headers: {} },
        { what: 'PUT', method: 'PUT', path: `${TABLE_PATH}?id=eq.1`, headers: {} },
        { what: 'a filtered DELETE', method: 'DELETE', path: `${TABLE_PATH}?id=eq.1`, headers: {} },
        {
          what: 'count=exact',
          method: 'GET',
          path: TABLE_PATH,
          headers: { Prefer: 'count=exact' },
        },
        {
          what: 'an upsert',
          method: 'POST',
          path: `${TABLE_PATH}?on_conflict=id`,
          headers: { Prefer: 'resolution=merge-duplicates' },
        },
        {
          what: 'handling=strict',
          method: 'POST',
          path: TABLE_PATH,
          headers: { Prefer: 'handling=strict' },
        },
        { what: 'a Range header', method: 'GET', path: TABLE_PATH, headers: { Range: '0-1' } },
        { what: 'another operator', method: 'GET', path: `${TABLE_PATH}?id=neq.1`, headers: {} },
        {
          what: 'the graphql_public schema',
          method: 'GET',
          path: TABLE_PATH,
          headers: { 'Accept-Profile': 'graphql_public' },
        },
      ])('answers $what, which no client sends, 400 PGRST127: not emulated', async (request) => {
        const response = await send(
          request.method,
          request.path,
          request.headers as Record<string, string>,
          request.method === 'POST' ? row() : undefined,
        )
        expect(response.status).toBe(400)
        if (request.method === 'HEAD') return
        expect(await response.json()).toMatchObject({
          code: 'PGRST127',
          message: 'Feature not implemented',
          details: expect.stringContaining('does not emulate') as string,
        })
        expect(await rowCount()).toBe(0)
      })
    }
  })

  describe('CORS and health', () => {
    it('answers a preflight without an API key, echoing the requested headers', async () => {
      const requested = 'apikey,authorization,content-profile,content-type,prefer,x-client-info'
      const response = await fetch(`${backend.url}${TABLE_PATH}`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://127.0.0.1:4173',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': requested,
        },
      })
      expect(response.ok).toBe(true)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-headers')).toBe(requested)
      expect(response.headers.get('access-control-allow-methods')).toBe(
        'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT',
      )
      expect(response.headers.get('access-control-allow-credentials')).toBeNull()
    })

    it('answers GET /health with 200 JSON after exercising storage', async () => {
      const response = await fetch(`${backend.url}/health`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ status: 'ok', database: backend.db.kind })
    })
  })

  if (oracle) {
    it('met every difference the list holds for this suite (none is stale)', () => {
      expect(started.expected.unused('api/')).toEqual([])
    })
  }

  describe('with the real supabase-js client', () => {
    const client = () =>
      createClient(backend.url, backend.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        // supabase-js wants a WebSocket constructor; these tests never open a realtime channel.
        realtime: { transport: NoRealtimeSocket as never },
      })

    it('inserts a sealed row: { error: null, status: 201 }, and reports a repeat as 409 / 23505', async () => {
      const sent = row()
      expect(await client().from('contact_submissions').insert(sent)).toMatchObject({
        error: null,
        data: null,
        status: 201,
      })
      const repeated = await client().from('contact_submissions').insert(sent)
      expect(repeated.status).toBe(409)
      expect(repeated.error?.code).toBe('23505')
      expect(await rowCount()).toBe(1)
    })
  })
})
