import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import {
  asPgError,
  StorageFaultError,
  type Database,
  type PgError,
  type Queryable,
} from './database'

/**
 * `/rest/v1/<table>` as Supabase's gateway and PostgREST v14 answer the one call the site makes
 * (an insert, return=minimal), with the refusals that matter in PostgREST's order, codes and error
 * bodies, and the gateway's CORS. Bodies are never logged: they are visitors' messages.
 */

/** The Supabase CLI's well-known local secret: it only ever protects a database on this machine. */
export const DEMO_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
/** The CLI signs its demo keys with this expiry; with DEMO_JWT_SECRET they are the published keys. */
const DEMO_EXPIRY = 1983812996
/** The hosted API has no lower limit (CHECK constraints answer long rows with 400). */
export const MAX_BODY_BYTES = 1024 * 1024
/** Deeper JSON is refused before any parser recurses on it (PostgreSQL's would fail with 54001). */
export const MAX_JSON_DEPTH = 64
const JSON_UTF8 = 'application/json; charset=utf-8'
const EXPOSED_HEADERS =
  'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit'

export type ApiKeys = { anonKey: string; serviceRoleKey: string }

export async function signApiKeys(jwtSecret: string): Promise<ApiKeys> {
  const key = new TextEncoder().encode(jwtSecret)
  const sign = (role: string) =>
    new SignJWT({ iss: 'supabase-demo', role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(DEMO_EXPIRY)
      .sign(key)
  return { anonKey: await sign('anon'), serviceRoleKey: await sign('service_role') }
}

const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { 'Content-Type': JSON_UTF8, ...headers },
  })

/** PostgREST's error envelope: all four keys, in its order, absent ones null. */
export function postgrestError(
  status: number,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
  headers: Record<string, string> = {},
): Response {
  return json(status, { code, details, hint, message }, headers)
}

/** An answer decided before the database (or instead of it), thrown out of the handler. */
class Refusal extends Error {
  constructor(readonly response: Response) {
    super('refused')
  }
}

function refuse(...args: Parameters<typeof postgrestError>): never {
  throw new Refusal(postgrestError(...args))
}

/** PostgREST's messages for a token it cannot use (src/PostgREST/Auth/Jwt.hs, Error.hs). */
async function verifyJwt(token: string, key: Uint8Array): Promise<JWTPayload> {
  const fail = (code: string, message: string, details: string | null = null): never => {
    const description = `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`
    return refuse(401, code, message, details, null, { 'WWW-Authenticate': description })
  }
  if (token === '') fail('PGRST301', 'Empty JWT is sent in Authorization header')
  const parts = token.split('.')
  if (parts.length !== 3) fail('PGRST301', `Expected 3 parts in JWT; got ${parts.length}`)
  try {
    return (await jwtVerify(token, key, { algorithms: ['HS256'], clockTolerance: 30 })).payload
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) fail('PGRST303', 'JWT expired')
    if (error instanceof joseErrors.JWTClaimValidationFailed) fail('PGRST303', error.message)
    if (
      Buffer.from(parts[0] ?? '', 'base64url')
        .toString()
        .includes('"alg":"none"')
    ) {
      const details = "JWT is unsecured but expected 'alg' was not 'none'"
      fail('PGRST301', 'Wrong or unsupported encoding algorithm', details)
    }
    const details = 'None of the keys was able to decode the JWT'
    return fail('PGRST301', 'No suitable key or wrong key type', details)
  }
}

/** The gateway: a project API key is required, and stands in for a missing Authorization header. */
async function gatewayAuthorization(c: Context, key: Uint8Array, valid: Map<string, boolean>) {
  const apikey = c.req.header('apikey') ?? c.req.query('apikey')
  const gatewayError = (message: string, hint: string) => new Refusal(json(401, { message, hint }))
  if (!apikey) {
    throw gatewayError(
      'No API key found in request',
      'No `apikey` request header or url param was found.',
    )
  }
  if (!valid.has(apikey)) {
    const payload = await jwtVerify(apikey, key, {
      algorithms: ['HS256'],
      currentDate: new Date(0),
    }).catch(() => null)
    valid.set(apikey, payload?.payload.role === 'anon' || payload?.payload.role === 'service_role')
  }
  if (!valid.get(apikey)) {
    throw gatewayError(
      'Invalid API key',
      'Double check your Supabase `anon` or `service_role` API key.',
    )
  }
  return c.req.header('authorization') ?? `Bearer ${apikey}`
}

/** How deep arrays and objects nest, counted without recursion. */
function nestingDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 0x5c) i += 1
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, (depth += 1))
    else if (char === 0x7d || char === 0x5d) depth -= 1
  }
  return deepest
}

type Rows = Record<string, unknown>[]

/** PostgREST's payload rule: one object, or an array of objects with the same keys. */
function parseRows(contentType: string | undefined, body: ArrayBuffer): Rows {
  const mime = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase()
  const invalid = (details: string | null = null) =>
    refuse(400, 'PGRST102', 'Empty or invalid json', details)
  if (mime !== 'application/json') refuse(400, 'PGRST102', `Content-Type not acceptable: ${mime}`)
  let text: string
  try {
    // Invalid UTF-8 is refused, never stored as U+FFFD replacement characters.
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    return invalid('The body is not valid UTF-8')
  }
  if (nestingDepth(text) > MAX_JSON_DEPTH)
    invalid(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return invalid()
  }
  const isObject = (item: unknown): item is Record<string, unknown> =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
  const keysOf = (row: Record<string, unknown>) => Object.keys(row).sort().join('\0')
  if (isObject(value)) return [value]
  if (
    Array.isArray(value) &&
    value.every(isObject) &&
    value.every((row) => keysOf(row) === keysOf(value[0] ?? {}))
  ) {
    return value
  }
  return refuse(400, 'PGRST102', 'All object keys must match')
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`

/** PostgREST's SQLSTATE → HTTP status table (mapSQLtoHTTP), for the codes an insert can meet. */
function statusFor(error: PgError, authenticated: boolean): number {
  // prettier-ignore
  const exact: Record<string, number> = { '23503': 409, '23505': 409, '25006': 405, P0001: 400, '42P01': 404, '42883': 404 }
  if (exact[error.code] !== undefined) return exact[error.code] as number
  if (error.code === '42501') return authenticated ? 403 : 401
  if (error.code === '22023' && /^role .* does not exist$/.test(error.message)) return 401
  const custom = /^PT(\d{3})$/.exec(error.code)?.[1]
  if (custom) return Number(custom)
  // prettier-ignore
  const byClass: Record<string, number> = { '08': 503, '53': 503, '57': 503, '25': 500, '38': 500, '39': 500, '40': 500, '54': 500, '55': 500, '58': 500, P0: 500, XX: 500 }
  return byClass[error.code.slice(0, 2)] ?? 400
}

/** `raise sqlstate 'PGRST' using message = '<JSON body>', detail = '{"status":…,"headers":{…}}'`. */
function raisedResponse(error: PgError): Response {
  const parse = (text: string | null) => {
    try {
      const value: unknown = JSON.parse(text ?? '')
      return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null
    } catch {
      return null
    }
  }
  const body = parse(error.message)
  const detail = parse(error.detail)
  if (
    typeof body?.code !== 'string' ||
    typeof body.message !== 'string' ||
    typeof detail?.status !== 'number'
  ) {
    const message = 'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error'
    return postgrestError(500, 'PGRST121', message, `MESSAGE: ${error.message}`)
  }
  const headers = Object.fromEntries(
    Object.entries((detail.headers ?? {}) as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  return postgrestError(
    detail.status,
    body.code,
    body.message,
    text(body.details),
    text(body.hint),
    headers,
  )
}

function errorResponse(error: unknown, authenticated: boolean): Response {
  if (error instanceof Refusal) return error.response
  const pgError = asPgError(error)
  if (pgError?.code === 'PGRST') return raisedResponse(pgError)
  if (pgError) {
    const { code, message, detail, hint } = pgError
    const status = statusFor(pgError, authenticated)
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}
    return postgrestError(status, code, message, detail, hint, headers)
  }
  // A storage fault or a lost connection: a temporary failure, never a refusal of the row.
  const details =
    error instanceof StorageFaultError ? error.message : 'The database is not available.'
  const message = 'Database client error. Retrying the connection.'
  return postgrestError(503, 'PGRST001', message, details, null, { 'Retry-After': '5' })
}

/** Read-only and update methods are not served, but refused as the role's grants refuse them. */
const METHOD_PROBES: Record<string, (table: string, column: string) => string> = {
  GET: (table) => `select from ${table} limit 0`,
  HEAD: (table) => `select from ${table} limit 0`,
  DELETE: (table) => `delete from ${table} where false`,
  PATCH: (table, column) => `update ${table} set ${column} = default where false`,
  PUT: (table, column) => `update ${table} set ${column} = default where false`,
}

type Identity = { role: string; claims: JWTPayload }

/** Runs the request as PostgREST does: one transaction, the role and request.* settings first. */
async function runRequest(
  db: Database,
  c: Context,
  identity: Identity,
  table: string,
  rows: Rows,
): Promise<Response> {
  const target = `public.${quote(table)}`
  return db.transaction(async (tx: Queryable) => {
    const [found] = await tx.query<{ columns: string[] | null; may_switch: boolean | null }>(
      `select (select array_agg(attname::text order by attnum) from pg_catalog.pg_attribute
                where attrelid = to_regclass($1) and attnum > 0 and not attisdropped) as columns,
              (select pg_catalog.pg_has_role('authenticator', oid, 'MEMBER') from pg_catalog.pg_roles
                where rolname = $2) as may_switch`,
      [target, identity.role],
    )
    if (!found?.columns) {
      refuse(404, 'PGRST205', `Could not find the table 'public.${table}' in the schema cache`)
    }
    const columns = Object.keys(rows[0] ?? {})
    const unknown = columns.filter((column) => !found.columns?.includes(column)).sort()[0]
    if (unknown !== undefined) {
      refuse(
        400,
        'PGRST204',
        `Could not find the '${unknown}' column of '${table}' in the schema cache`,
      )
    }
    // PostgREST logs in as authenticator and may only switch to the roles granted to it.
    if (found.may_switch === null)
      throw Object.assign(new Error(`role "${identity.role}" does not exist`), { code: '22023' })
    if (!found.may_switch)
      throw Object.assign(new Error(`permission denied to set role "${identity.role}"`), {
        code: '42501',
      })

    // Lowercased, and only what the client sent: cf-connecting-ip is never invented here.
    const headers = Object.fromEntries([...c.req.raw.headers].filter(([name]) => name !== 'cookie'))
    await tx.query(
      `select set_config('search_path', 'public, extensions', true), set_config('request.jwt.claims', $1, true),
              set_config('request.method', $2, true), set_config('request.path', $3, true),
              set_config('request.headers', $4, true), set_config('role', $5, true)`,
      [
        JSON.stringify(identity.claims),
        c.req.method,
        `/${table}`,
        JSON.stringify(headers),
        identity.role,
      ],
    )
    const probe = METHOD_PROBES[c.req.method]
    if (probe) {
      await tx.query(probe(target, quote(found.columns[0] ?? 'id')))
      refuse(400, 'PGRST127', 'Feature not implemented', 'The local stand-in serves only inserts.')
    }
    const list = columns.map(quote).join(', ')
    const insert = `insert into ${target} ${list ? `(${list}) ` : ''}select ${list} from json_populate_recordset(null::${target}, $1::json)`
    const representation = /\breturn=representation\b/.test(c.req.header('prefer') ?? '')
    // `returning *` needs SELECT on the row, exactly as with PostgREST: anon gets 401 here.
    const result = await tx.query<{ body: string }>(
      representation
        ? `with inserted as (${insert} returning *) select coalesce(json_agg(inserted), '[]')::text as body from inserted`
        : insert,
      [JSON.stringify(rows)],
    )
    return representation
      ? new Response(result[0]?.body ?? '[]', {
          status: 201,
          headers: { 'Content-Type': JSON_UTF8, 'Content-Range': '*/*' },
        })
      : new Response(null, { status: 201, headers: { 'Content-Range': '*/*' } })
  })
}

const invalidPath = () =>
  postgrestError(
    404,
    'PGRST125',
    'Invalid path specified in request URL',
    null,
    'The local stand-in serves POST /rest/v1/<table> and GET /health.',
  )

export type RestApiOptions = { db: Database; jwtSecret: string; log?: (line: string) => void }

export function createRestApi({ db, jwtSecret, log }: RestApiOptions): Hono {
  const key = new TextEncoder().encode(jwtSecret)
  const validKeys = new Map<string, boolean>()
  const app = new Hono()

  app.use(async (c, next) => {
    const started = performance.now()
    await next()
    log?.(
      `${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${Math.round(performance.now() - started)}ms`,
    )
  })
  // As the CLI's Kong `cors` plugin with no options: any origin, all methods, requested headers echoed.
  app.use(
    cors({
      origin: '*',
      allowMethods: 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT'.split(','),
      exposeHeaders: [EXPOSED_HEADERS],
    }),
  )
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () =>
        json(
          413,
          {
            message: 'Request size limit exceeded',
            hint: `The local stand-in accepts bodies up to ${MAX_BODY_BYTES} bytes.`,
          },
          { Connection: 'close' },
        ),
    }),
  )

  app.get('/health', async () => {
    try {
      await db.checkStorage()
      return json(200, { status: 'ok', database: db.kind })
    } catch (error) {
      return json(503, {
        status: 'unavailable',
        database: db.kind,
        reason: error instanceof Error ? error.message : String(error),
      })
    }
  })

  app.all('/rest/v1/*', async (c) => {
    let identity: Identity | null = null
    try {
      const authorization = await gatewayAuthorization(c, key, validKeys)
      const bearer = /^bearer(?:\s+(.*))?$/i.exec(authorization.trim())
      const claims = bearer ? await verifyJwt((bearer[1] ?? '').trim(), key) : {}
      const role = typeof claims.role === 'string' && claims.role !== '' ? claims.role : 'anon'
      identity = { role, claims: { ...claims, role } }

      if (!['POST', ...Object.keys(METHOD_PROBES)].includes(c.req.method)) {
        return postgrestError(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`)
      }
      const segments = c.req.path.slice('/rest/v1/'.length).split('/').filter(Boolean)
      if (segments.length !== 1 || segments[0] === undefined) return invalidPath()
      const rows =
        c.req.method === 'POST'
          ? parseRows(c.req.header('content-type'), await c.req.arrayBuffer())
          : []
      return await runRequest(db, c, identity, decodeURIComponent(segments[0]), rows)
    } catch (error) {
      return errorResponse(error, identity !== null && identity.role !== 'anon')
    }
  })

  app.all('*', () => invalidPath())
  return app
}
