// @vitest-environment node
import { randomUUID } from 'node:crypto'
import { createClient } from '@supabase/supabase-js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  BUDGET_VALUES,
  LIMITS,
  PROJECT_TYPE_VALUES,
} from '../../src/features/contact/contact-fields'
import { LOCAL_PUBLISHABLE_KEY, LOCAL_SECRET_KEY } from './api-keys'
import { signJwt } from './jwt'
import { startLocalBackend, type LocalBackend } from './local-backend'
import { createThrowawayDatabase } from './throwaway-postgres'

/**
 * The stand-in answers the site's one call as Supabase (gateway + PostgREST v14) does, on both
 * databases it can run on: the embedded PGlite and a real PostgreSQL, each with the migrations
 * applied through the same code path. Expected values come from
 * shared/reference/supabase-rest-contract.md.
 */

const TABLE_PATH = '/rest/v1/contact_submissions'
const JSON_UTF8 = 'application/json; charset=utf-8'
/** The Supabase CLI's published local JWT secret, written out: the contract is with that value. */
const CLI_DEMO_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
const OTHER_SECRET = 'a-different-secret-that-is-also-at-least-32-characters'

type Started = { backend: LocalBackend; stop(): Promise<void> }

const backends: { name: string; start(): Promise<Started> }[] = [
  {
    name: 'embedded PGlite (in memory)',
    async start() {
      const backend = await startLocalBackend({ apiPort: 0, dbPort: null, dataDir: 'memory' })
      return { backend, stop: () => backend.close() }
    },
  },
  {
    name: 'PostgreSQL on 127.0.0.1:5432 (throwaway database)',
    async start() {
      const database = await createThrowawayDatabase()
      try {
        const backend = await startLocalBackend({ apiPort: 0, databaseUrl: database.url })
        return {
          backend,
          async stop() {
            await backend.close()
            await database.drop()
          },
        }
      } catch (error) {
        await database.drop()
        throw error
      }
    },
  },
]

class NoRealtimeSocket {
  constructor() {
    throw new Error('These tests do not use realtime')
  }
}

/** A valid row as the browser sends it (contact-schema.ts), with a fresh id. */
function validRow(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: randomUUID(),
    name: 'Ada Lovelace',
    contact: 'ada@example.com',
    project_type: PROJECT_TYPE_VALUES[0],
    budget: BUDGET_VALUES[1],
    message: 'We launch next month and need a campaign.',
    user_agent: 'Mozilla/5.0 (contract test)',
    ...overrides,
  }
}

describe.each(backends)('POST /rest/v1/contact_submissions on $name', ({ start }) => {
  let started: Started
  let backend: LocalBackend

  beforeAll(async () => {
    started = await start()
    backend = started.backend
  }, 120_000)

  afterAll(async () => {
    await started?.stop()
  })

  afterEach(async () => {
    await backend.db.query('delete from public.contact_submissions')
  })

  const anonHeaders = () => ({
    apikey: backend.anonKey,
    Authorization: `Bearer ${backend.anonKey}`,
    'Content-Type': 'application/json',
    'Content-Profile': 'public',
  })

  function post(body: unknown, headers: Record<string, string | null> = {}, path = TABLE_PATH) {
    const merged: Record<string, string> = {}
    for (const [name, value] of Object.entries({ ...anonHeaders(), ...headers })) {
      if (value !== null) merged[name] = value
    }
    return fetch(`${backend.url}${path}`, {
      method: 'POST',
      headers: merged,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  }

  async function expectPostgrestError(
    response: Response,
    status: number,
    expected: { code: string; message: string; details?: string | null; hint?: string | null },
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

  describe('success', () => {
    it('answers 201 with an empty body, Content-Range */* and no Content-Type, and stores the row', async () => {
      const row = validRow()
      const response = await post(row, { Origin: 'http://127.0.0.1:4173' })

      expect(response.status).toBe(201)
      expect(await response.text()).toBe('')
      expect(response.headers.get('content-range')).toBe('*/*')
      expect(response.headers.get('content-type')).toBeNull()
      expect(response.headers.get('content-length')).toBe('0')
      expect(response.headers.get('preference-applied')).toBeNull()
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range')

      const [stored] = await backend.db.query<Record<string, unknown>>(
        `select id, name, contact, project_type, budget, message, user_agent,
                created_at > now() - interval '1 minute' as recent
           from public.contact_submissions`,
      )
      expect(stored).toEqual({ ...row, recent: true })
    })

    it('accepts a row without project type and budget (null)', async () => {
      const response = await post(validRow({ project_type: null, budget: null }))
      expect(response.status).toBe(201)
    })

    it('accepts every project type and budget value the form offers', async () => {
      const rows = PROJECT_TYPE_VALUES.flatMap((project_type) =>
        BUDGET_VALUES.map((budget) => validRow({ project_type, budget })),
      )
      const response = await post(rows)
      expect(response.status).toBe(201)
      expect(await rowCount()).toBe(PROJECT_TYPE_VALUES.length * BUDGET_VALUES.length)
    })

    it('inserts with only the apikey header (the gateway uses the key as the bearer token)', async () => {
      const response = await post(validRow(), { Authorization: null })
      expect(response.status).toBe(201)
    })

    it('accepts the apikey as a URL parameter, like the hosted gateway', async () => {
      const response = await post(
        validRow(),
        { apikey: null },
        `${TABLE_PATH}?apikey=${backend.anonKey}`,
      )
      expect(response.status).toBe(201)
    })

    it('accepts the local publishable key, which the gateway maps to the anon role', async () => {
      const response = await post(validRow(), {
        apikey: LOCAL_PUBLISHABLE_KEY,
        Authorization: `Bearer ${LOCAL_PUBLISHABLE_KEY}`,
      })
      expect(response.status).toBe(201)
    })

    it('echoes honoured preferences in Preference-Applied', async () => {
      const response = await post(validRow(), { Prefer: 'return=minimal' })
      expect(response.status).toBe(201)
      expect(response.headers.get('preference-applied')).toBe('return=minimal')
    })

    it('ignores an empty Prefer header, as older supabase-js versions send it', async () => {
      const response = await post(validRow(), { Prefer: '' })
      expect(response.status).toBe(201)
      expect(response.headers.get('preference-applied')).toBeNull()
    })
  })

  describe('check constraints', () => {
    const boundaries: { field: string; value: string }[] = [
      { field: 'name', value: 'n'.repeat(LIMITS.name) },
      { field: 'contact', value: 'c'.repeat(LIMITS.contact) },
      { field: 'message', value: 'm'.repeat(LIMITS.message) },
      { field: 'user_agent', value: 'u'.repeat(LIMITS.userAgent) },
      { field: 'user_agent', value: '' },
    ]
    it.each(boundaries)(
      'accepts $field at its limit ($value.length characters)',
      async ({ field, value }) => {
        const response = await post(validRow({ [field]: value }))
        expect(response.status).toBe(201)
      },
    )

    const violations: { case: string; field: string; value: string; constraint: string }[] = [
      {
        case: 'a name one character too long',
        field: 'name',
        value: 'n'.repeat(LIMITS.name + 1),
        constraint: 'name',
      },
      { case: 'a whitespace-only name', field: 'name', value: ' \t ', constraint: 'name' },
      { case: 'a name with a leading space', field: 'name', value: ' Ada', constraint: 'name' },
      { case: 'an empty contact', field: 'contact', value: '', constraint: 'contact' },
      {
        case: 'a contact one character too long',
        field: 'contact',
        value: 'c'.repeat(LIMITS.contact + 1),
        constraint: 'contact',
      },
      {
        case: 'a contact with a trailing space',
        field: 'contact',
        value: '@ada ',
        constraint: 'contact',
      },
      {
        case: 'a message one character too long',
        field: 'message',
        value: 'm'.repeat(LIMITS.message + 1),
        constraint: 'message',
      },
      {
        case: 'a message with a trailing newline',
        field: 'message',
        value: 'Hello\n',
        constraint: 'message',
      },
      {
        case: 'a user agent one character too long',
        field: 'user_agent',
        value: 'u'.repeat(LIMITS.userAgent + 1),
        constraint: 'user_agent',
      },
      {
        case: 'an unknown project type',
        field: 'project_type',
        value: 'nft-drop',
        constraint: 'project_type',
      },
      {
        case: 'a project type label instead of its value',
        field: 'project_type',
        value: 'Other',
        constraint: 'project_type',
      },
      { case: 'an unknown budget', field: 'budget', value: '1m-plus', constraint: 'budget' },
    ]
    it.each(violations)(
      'refuses $case with 400 and the constraint name',
      async ({ field, value, constraint }) => {
        const response = await post(validRow({ [field]: value }))
        // details are null: Postgres hides the failing row from a role subject to RLS.
        await expectPostgrestError(response, 400, {
          code: '23514',
          message: `new row for relation "contact_submissions" violates check constraint "contact_submissions_${constraint}_check"`,
        })
        expect(await rowCount()).toBe(0)
      },
    )

    it('refuses a missing required field with 400 / 23502', async () => {
      const { name: _omitted, ...row } = validRow()
      await expectPostgrestError(await post(row), 400, {
        code: '23502',
        message:
          'null value in column "name" of relation "contact_submissions" violates not-null constraint',
      })
    })

    it('refuses an id that is not a uuid with 400 / 22P02', async () => {
      await expectPostgrestError(await post(validRow({ id: 'not-a-uuid' })), 400, {
        code: '22P02',
        message: 'invalid input syntax for type uuid: "not-a-uuid"',
      })
    })

    it('refuses a second insert with the same id with 409 / 23505 and keeps one row', async () => {
      const row = validRow()
      expect((await post(row)).status).toBe(201)
      await expectPostgrestError(await post(row), 409, {
        code: '23505',
        message: 'duplicate key value violates unique constraint "contact_submissions_pkey"',
      })
      expect(await rowCount()).toBe(1)
    })
  })

  describe('API keys (the gateway)', () => {
    it('refuses a request without an API key with 401 and the hosted message', async () => {
      const response = await post(validRow(), { apikey: null, Authorization: null })
      expect(response.status).toBe(401)
      expect(response.headers.get('content-type')).toBe(JSON_UTF8)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toEqual({
        message: 'No API key found in request',
        hint: 'No `apikey` request header or url param was found.',
      })
      expect(await rowCount()).toBe(0)
    })

    it.each([
      { case: 'an unknown string', key: 'not-a-key' },
      { case: 'a key signed with another secret', key: signJwt({ role: 'anon' }, OTHER_SECRET) },
      {
        case: 'a signed token for another role',
        key: signJwt({ role: 'authenticated' }, CLI_DEMO_SECRET),
      },
    ])('refuses $case as API key with 401 Invalid API key', async ({ key }) => {
      const response = await post(validRow(), { apikey: key })
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
        token: () => '',
        code: 'PGRST301',
        message: 'Empty JWT is sent in Authorization header',
        details: null,
      },
      {
        case: 'a token that is not a JWT',
        token: () => 'abc',
        code: 'PGRST301',
        message: 'Expected 3 parts in JWT; got 1',
        details: null,
      },
      {
        case: 'a token with a bad signature',
        token: () => signJwt({ role: 'anon' }, OTHER_SECRET),
        code: 'PGRST301',
        message: 'No suitable key or wrong key type',
        details: 'None of the keys was able to decode the JWT',
      },
      {
        case: 'an unsigned token (alg none)',
        token: () =>
          `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.`,
        code: 'PGRST301',
        message: 'Wrong or unsupported encoding algorithm',
        details: "JWT is unsecured but expected 'alg' was not 'none'",
      },
      {
        case: 'an expired token',
        token: () => signJwt({ role: 'anon', exp: now() - 60 }, CLI_DEMO_SECRET),
        code: 'PGRST303',
        message: 'JWT expired',
        details: null,
      },
    ])('refuses $case with 401 $code', async ({ token, code, message, details }) => {
      const response = await post(validRow(), { Authorization: `Bearer ${token()}` })
      await expectPostgrestError(response, 401, { code, message, details })
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
      )
      expect(await rowCount()).toBe(0)
    })

    it('accepts a token inside the 30 s clock skew PostgREST allows', async () => {
      const token = signJwt({ role: 'anon', exp: now() - 10 }, CLI_DEMO_SECRET)
      expect((await post(validRow(), { Authorization: `Bearer ${token}` })).status).toBe(201)
    })

    it('refuses a role that does not exist with 401 / 22023', async () => {
      const token = signJwt({ role: 'nobody' }, CLI_DEMO_SECRET)
      await expectPostgrestError(
        await post(validRow(), { Authorization: `Bearer ${token}` }),
        401,
        {
          code: '22023',
          message: 'role "nobody" does not exist',
        },
      )
    })

    it('refuses a role the API may not switch to (postgres) with 403 / 42501', async () => {
      const token = signJwt({ role: 'postgres' }, CLI_DEMO_SECRET)
      await expectPostgrestError(
        await post(validRow(), { Authorization: `Bearer ${token}` }),
        403,
        {
          code: '42501',
          message: 'permission denied to set role "postgres"',
        },
      )
      expect(await rowCount()).toBe(0)
    })
  })

  describe('grants and row level security', () => {
    it('refuses anon setting created_at with 401 / 42501 and WWW-Authenticate: Bearer', async () => {
      const response = await post(validRow({ created_at: '2020-01-01T00:00:00Z' }))
      await expectPostgrestError(response, 401, {
        code: '42501',
        message: 'permission denied for table contact_submissions',
      })
      expect(response.headers.get('www-authenticate')).toBe('Bearer')
    })

    it('refuses a signed-in (authenticated) user with 403 / 42501', async () => {
      const token = signJwt(
        { role: 'authenticated', sub: randomUUID() },
        CLI_DEMO_SECRET,
      )
      const response = await post(validRow(), { Authorization: `Bearer ${token}` })
      await expectPostgrestError(response, 403, {
        code: '42501',
        message: 'permission denied for table contact_submissions',
      })
      expect(response.headers.get('www-authenticate')).toBeNull()
    })

    it('lets the service_role key insert, including created_at', async () => {
      const row = validRow({ created_at: '2020-01-01T00:00:00.000Z' })
      const response = await post(row, {
        apikey: backend.serviceRoleKey,
        Authorization: `Bearer ${backend.serviceRoleKey}`,
      })
      expect(response.status).toBe(201)
      const [stored] = await backend.db.query<{ created_at: Date }>(
        'select created_at from public.contact_submissions where id = $1',
        [row.id],
      )
      expect(stored?.created_at.toISOString()).toBe('2020-01-01T00:00:00.000Z')
    })

    it('lets the local secret key act as service_role', async () => {
      const response = await post(validRow({ created_at: '2021-01-01T00:00:00Z' }), {
        apikey: LOCAL_SECRET_KEY,
        Authorization: `Bearer ${LOCAL_SECRET_KEY}`,
      })
      expect(response.status).toBe(201)
    })

    it('refuses to return the inserted row to anon (return=representation needs SELECT)', async () => {
      const response = await post(
        validRow(),
        { Prefer: 'return=representation' },
        `${TABLE_PATH}?select=*`,
      )
      await expectPostgrestError(response, 401, {
        code: '42501',
        message: 'permission denied for table contact_submissions',
      })
      expect(await rowCount()).toBe(0)
    })

    it('runs the insert with the request settings PostgREST sets (role and JWT claims)', async () => {
      // The service role may read its own transaction's settings back through return=representation.
      await backend.db.exec(`
        create or replace function public.contact_submissions_request_probe() returns trigger
        language plpgsql as $$
        begin
          new.user_agent := concat_ws('|', current_user, auth.role(), current_setting('request.method', true),
                                      current_setting('request.path', true));
          return new;
        end $$;
        create trigger contact_submissions_request_probe before insert on public.contact_submissions
          for each row execute function public.contact_submissions_request_probe();`)
      try {
        const response = await post(
          validRow(),
          {
            apikey: backend.serviceRoleKey,
            Authorization: `Bearer ${backend.serviceRoleKey}`,
            Prefer: 'return=representation',
          },
          `${TABLE_PATH}?select=user_agent`,
        )
        expect(response.status).toBe(201)
        expect(response.headers.get('content-type')).toBe(JSON_UTF8)
        expect(response.headers.get('preference-applied')).toBe('return=representation')
        expect(await response.json()).toEqual([
          { user_agent: 'service_role|service_role|POST|/contact_submissions' },
        ])
      } finally {
        await backend.db.exec(`
          drop trigger contact_submissions_request_probe on public.contact_submissions;
          drop function public.contact_submissions_request_probe();`)
      }
    })
  })

  describe('request errors', () => {
    it('names an unknown column with PGRST204 (the alphabetically first one)', async () => {
      await expectPostgrestError(await post(validRow({ zzz: 1, nmae: 'Ada' })), 400, {
        code: 'PGRST204',
        message: "Could not find the 'nmae' column of 'contact_submissions' in the schema cache",
      })
    })

    it.each([
      { case: 'invalid JSON', body: '{"name":' },
      { case: 'an empty body', body: '' },
    ])('refuses $case with PGRST102 Empty or invalid json', async ({ body }) => {
      const response = await post(body)
      await expectPostgrestError(response, 400, {
        code: 'PGRST102',
        message: 'Empty or invalid json',
      })
      expect(response.headers.get('content-length')).toBe('80')
    })

    it.each([
      { case: 'a JSON string', body: '"hello"' },
      {
        case: 'an array of objects with different keys',
        body: JSON.stringify([{ name: 'a' }, { contact: 'b' }]),
      },
    ])('refuses $case with PGRST102 All object keys must match', async ({ body }) => {
      await expectPostgrestError(await post(body), 400, {
        code: 'PGRST102',
        message: 'All object keys must match',
      })
    })

    it('refuses a body that is not JSON by its Content-Type', async () => {
      await expectPostgrestError(await post('name=Ada', { 'Content-Type': 'text/plain' }), 400, {
        code: 'PGRST102',
        message: 'Content-Type not acceptable: text/plain',
      })
    })

    it('answers a body over 1 MiB with 413 and a JSON error', async () => {
      const response = await post('x'.repeat(1024 * 1024 + 1))
      expect(response.status).toBe(413)
      expect(response.headers.get('content-type')).toBe(JSON_UTF8)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toMatchObject({ message: 'Request size limit exceeded' })
    })

    it('lets a body just under 1 MiB through to the database, which refuses the long message', async () => {
      const row = validRow({ message: '' })
      const padding = 1024 * 1024 - JSON.stringify(row).length
      const response = await post(validRow({ ...row, message: 'm'.repeat(padding) }))
      expect(response.status).toBe(400)
      expect((await response.json()).message).toContain('contact_submissions_message_check')
    })

    it('answers an unknown table with a JSON 404 (PGRST205), never an empty one', async () => {
      await expectPostgrestError(await post(validRow(), {}, '/rest/v1/contact_submission'), 404, {
        code: 'PGRST205',
        message: "Could not find the table 'public.contact_submission' in the schema cache",
      })
    })

    it('refuses a schema that is not exposed with 406 / PGRST106', async () => {
      await expectPostgrestError(await post(validRow(), { 'Content-Profile': 'auth' }), 406, {
        code: 'PGRST106',
        message: 'Invalid schema: auth',
        hint: 'Only the following schemas are exposed: public, graphql_public',
      })
    })

    it('answers reads, which the stand-in does not implement, with a JSON error', async () => {
      const response = await fetch(`${backend.url}${TABLE_PATH}?select=*`, {
        headers: anonHeaders(),
      })
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toBe(JSON_UTF8)
      expect(await response.json()).toMatchObject({
        code: 'PGRST127',
        message: 'Feature not implemented',
      })
    })

    it('answers the API root with a JSON error', async () => {
      const response = await fetch(`${backend.url}/rest/v1/`, { headers: anonHeaders() })
      expect(response.headers.get('content-type')).toBe(JSON_UTF8)
      expect(await response.json()).toMatchObject({ code: 'PGRST127' })
    })

    it('answers a method PostgREST does not know with 405 / PGRST117', async () => {
      const response = await fetch(`${backend.url}${TABLE_PATH}`, {
        method: 'PURGE',
        headers: anonHeaders(),
      })
      await expectPostgrestError(response, 405, {
        code: 'PGRST117',
        message: 'Unsupported HTTP method: PURGE',
      })
    })

    it('answers paths outside the REST API with a JSON 404', async () => {
      const response = await fetch(`${backend.url}/auth/v1/token`, {
        method: 'POST',
        headers: anonHeaders(),
      })
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toBe(JSON_UTF8)
      expect(await response.json()).toMatchObject({ code: 'PGRST125' })
    })
  })

  describe('CORS and health', () => {
    it('answers a preflight with 200, echoing the requested headers, without an API key', async () => {
      const requested = 'apikey,authorization,content-profile,content-type,prefer,x-client-info'
      const response = await fetch(`${backend.url}${TABLE_PATH}`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://127.0.0.1:4173',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': requested,
        },
      })
      expect(response.status).toBe(200)
      expect(await response.text()).toBe('')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-headers')).toBe(requested)
      expect(response.headers.get('access-control-allow-methods')).toBe(
        'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT',
      )
      expect(response.headers.get('access-control-allow-credentials')).toBeNull()
    })

    it('answers GET /health with 200 JSON', async () => {
      const response = await fetch(`${backend.url}/health`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ status: 'ok', database: backend.db.kind })
    })
  })

  describe('with the real supabase-js client', () => {
    const client = () =>
      createClient(backend.url, backend.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        // Node 20 has no global WebSocket and supabase-js refuses to start without one; these
        // tests never open a realtime channel, so a constructor that fails if used is enough.
        realtime: { transport: globalThis.WebSocket ?? NoRealtimeSocket },
      })

    it('inserts a submission: { error: null, status: 201 }', async () => {
      const result = await client().from('contact_submissions').insert(validRow())
      expect(result).toMatchObject({ error: null, data: null, status: 201 })
      expect(await rowCount()).toBe(1)
    })

    it('reports a repeated insert as 409 with error.code 23505', async () => {
      const row = validRow()
      await client().from('contact_submissions').insert(row)
      const result = await client().from('contact_submissions').insert(row)
      expect(result.status).toBe(409)
      expect(result.error?.code).toBe('23505')
      expect(await rowCount()).toBe(1)
    })

    it('shows a refused row as the database message', async () => {
      const result = await client()
        .from('contact_submissions')
        .insert(validRow({ budget: 'lots' }))
      expect(result.status).toBe(400)
      expect(result.error).toMatchObject({
        code: '23514',
        message:
          'new row for relation "contact_submissions" violates check constraint "contact_submissions_budget_check"',
      })
    })

    it('refuses an upsert for anon, as production does (ON CONFLICT needs read access)', async () => {
      const result = await client()
        .from('contact_submissions')
        .upsert(validRow(), { onConflict: 'id', ignoreDuplicates: true })
      expect(result.status).toBe(401)
      expect(result.error?.code).toBe('42501')
      expect(await rowCount()).toBe(0)
    })
  })
})
