import type { Context } from 'hono'
import type { Database, Queryable } from '../database'
import type { Gateway, Identity } from '../gateway'
import { errorResponse, JSON_UTF8, postgrestError, refuse } from './errors'
import {
  checkPreferences,
  parsePreferences,
  preferenceApplied,
  type Preferences,
} from './preferences'
import { parseQuery, quote } from './query'
import { contentRange, rangeStatus, requestedWindow } from './range'

/**
 * `/rest/v1/<table>` and `/rest/v1/rpc/<function>` as PostgREST v14 answers the calls this product
 * makes: the site's insert (return=minimal), the staff inbox's reads (select, filters, order) and
 * status update (PATCH), and the staff tools' functions, with the refusals that matter in
 * PostgREST's order, codes and error bodies.
 */

/** Deeper JSON is refused before any parser recurses on it (PostgreSQL's would fail with 54001). */
export const MAX_JSON_DEPTH = 64

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

type Row = Record<string, unknown>
type Rows = Row[]

/**
 * PostgREST's payload rule (payloadAttributes): one object, or an array of objects with the same
 * keys; any other JSON value (a string, a number, null) is taken as an empty array.
 */
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
    return invalid()
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
  if (!Array.isArray(value)) return []
  if (value.every(isObject) && value.every((row) => keysOf(row) === keysOf(value[0] ?? {}))) {
    return value
  }
  return refuse(400, 'PGRST102', 'All object keys must match')
}

/** Methods not served, refused as the role's grants refuse them (then as not implemented). */
const METHOD_PROBES: Record<string, (table: string, column: string) => string> = {
  DELETE: (table) => `delete from ${table} where false`,
  PUT: (table, column) => `update ${table} set ${column} = default where false`,
}
const SERVED_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', ...Object.keys(METHOD_PROBES)]

/** Supabase's `[api] schemas`: the schemas PostgREST serves, `public` first (the default). */
export const EXPOSED_SCHEMAS = ['public', 'graphql_public']

/**
 * The schema a request is for (getSchema): `Accept-Profile` for GET and HEAD, `Content-Profile`
 * for the others, `public` without one; any other schema is refused with 406 PGRST106.
 */
function requestedSchema(c: Context): string {
  const header = ['GET', 'HEAD'].includes(c.req.method) ? 'accept-profile' : 'content-profile'
  const schema = c.req.header(header) ?? EXPOSED_SCHEMAS[0] ?? 'public'
  if (!EXPOSED_SCHEMAS.includes(schema)) {
    refuse(
      406,
      'PGRST106',
      `Invalid schema: ${schema}`,
      null,
      `Only the following schemas are exposed: ${EXPOSED_SCHEMAS.join(', ')}`,
    )
  }
  return schema
}

/** One request as PostgREST sees it once the gateway let it through. */
type RestRequest = {
  c: Context
  identity: Identity
  schema: string
  preferences: Preferences
  url: URL
}

type Target = { relation: string; columns: string[]; hasPrimaryKey: boolean }

/**
 * What PostgREST does before any statement: find the relation (or function) in the schema cache,
 * switch to the request's role (only one granted to authenticator), and set the request.* GUCs
 * the policies and triggers read.
 */
async function enterRequest(
  tx: Queryable,
  request: RestRequest,
  name: string | null,
  path: string,
  check: (target: Target) => void = () => {},
): Promise<Target> {
  const { c, identity, schema } = request
  const relation = name === null ? null : `${quote(schema)}.${quote(name)}`
  const [found] = await tx.query<{
    columns: string[] | null
    has_primary_key: boolean
    may_switch: boolean | null
  }>(
    `select (select array_agg(attname::text order by attnum) from pg_catalog.pg_attribute
              where attrelid = to_regclass($1) and attnum > 0 and not attisdropped) as columns,
            exists (select from pg_catalog.pg_index
              where indrelid = to_regclass($1) and indisprimary) as has_primary_key,
            (select pg_catalog.pg_has_role('authenticator', oid, 'MEMBER') from pg_catalog.pg_roles
              where rolname = $2) as may_switch`,
    [relation, identity.role],
  )
  const target = {
    relation: relation ?? '',
    columns: found?.columns ?? [],
    hasPrimaryKey: found?.has_primary_key ?? false,
  }
  // What PostgREST knows from its schema cache is refused before it opens a transaction.
  check(target)
  checkPreferences(request.preferences)
  // PostgREST logs in as authenticator and may only switch to the roles granted to it.
  if (found?.may_switch === null || found?.may_switch === undefined)
    throw Object.assign(new Error(`role "${identity.role}" does not exist`), { code: '22023' })
  if (!found.may_switch)
    throw Object.assign(new Error(`permission denied to set role "${identity.role}"`), {
      code: '42501',
    })
  // Lowercased, and only what the client sent: cf-connecting-ip is never invented here.
  const headers = Object.fromEntries(
    [...c.req.raw.headers].filter(([header]) => header !== 'cookie'),
  )
  const searchPath = [...new Set([schema, 'public', 'extensions'])].join(', ')
  await tx.query(
    `select set_config('search_path', $6, true), set_config('request.jwt.claims', $1, true),
            set_config('request.method', $2, true), set_config('request.path', $3, true),
            set_config('request.headers', $4, true), set_config('role', $5, true)`,
    [
      JSON.stringify(identity.claims),
      c.req.method,
      path,
      JSON.stringify(headers),
      identity.role,
      searchPath,
    ],
  )
  return target
}

function requireRelation(target: Target, schema: string, name: string): void {
  if (target.columns.length === 0)
    refuse(404, 'PGRST205', `Could not find the table '${schema}.${name}' in the schema cache`)
}

function requireColumns(target: Target, name: string, columns: string[]): void {
  const unknown = columns.filter((column) => !target.columns.includes(column)).sort()[0]
  if (unknown !== undefined) {
    refuse(
      400,
      'PGRST204',
      `Could not find the '${unknown}' column of '${name}' in the schema cache`,
    )
  }
}

/** The rows as JSON text, in PostgREST's answer: an array, or one object where it was asked for. */
function rowsResponse(
  request: RestRequest,
  status: number,
  body: string | null,
  count: number,
  headers: Record<string, string>,
): Response {
  if ((request.c.req.header('accept') ?? '').includes('application/vnd.pgrst.object+json')) {
    if (count !== 1) {
      refuse(
        406,
        'PGRST116',
        'Cannot coerce the result to a single JSON object',
        `The result contains ${count} rows`,
      )
    }
    const [row] = JSON.parse(body ?? '[null]') as unknown[]
    return new Response(body === null ? null : JSON.stringify(row), {
      status,
      headers: { 'Content-Type': 'application/vnd.pgrst.object+json; charset=utf-8', ...headers },
    })
  }
  return new Response(body, { status, headers: { 'Content-Type': JSON_UTF8, ...headers } })
}

/** Runs `sql` wrapped so the database returns its rows as one JSON array, and their count. */
async function jsonRows(tx: Queryable, sql: string, params: unknown[]) {
  const [result] = await tx.query<{ body: string; count: number }>(
    `with rows as (${sql}) select coalesce(json_agg(rows), '[]')::text as body, count(*)::int as count from rows`,
    params,
  )
  return { body: result?.body ?? '[]', count: result?.count ?? 0 }
}

/** The total a `Prefer: count=exact` asks for (null without it), of the rows `where` selects. */
async function exactCount(
  tx: Queryable,
  request: RestRequest,
  relation: string,
  where: string,
  params: unknown[],
): Promise<number | null> {
  if (request.preferences.count !== 'exact') return null
  const [row] = await tx.query<{ total: number }>(
    `select count(*)::int as total from ${relation} ${where}`,
    params,
  )
  return row?.total ?? 0
}

/** GET and HEAD: select with filters, order and the requested range; counted if asked. */
async function readRows(tx: Queryable, request: RestRequest, target: Target): Promise<Response> {
  const { c, url } = request
  const query = parseQuery(url.searchParams)
  const window = requestedWindow(c.req.method, c.req.header('range'), query.offset, query.limit)
  const { body, count } = await jsonRows(
    tx,
    `select ${query.columns} from ${target.relation} ${query.where} ${query.orderBy} limit ${window.limit} offset ${window.offset}`,
    query.params,
  )
  const total = await exactCount(tx, request, target.relation, query.where, query.params)
  const status = rangeStatus(window.offset, count, total)
  return rowsResponse(request, status, c.req.method === 'HEAD' ? null : body, count, {
    'Content-Range': contentRange(window.offset, count, total),
    ...preferenceApplied(request.preferences, 'read'),
  })
}

/** PATCH: the body's columns set on the rows the filters select. */
async function updateRows(
  tx: Queryable,
  request: RestRequest,
  target: Target,
  values: Row,
): Promise<Response> {
  const columns = Object.keys(values)
  const applied = preferenceApplied(request.preferences, 'update')
  if (columns.length === 0)
    return new Response(null, { status: 204, headers: { 'Content-Range': '*/*', ...applied } })
  const query = parseQuery(request.url.searchParams, 2)
  const set = columns
    .map(
      (column) =>
        `${quote(column)} = (select ${quote(column)} from json_populate_record(null::${target.relation}, $1::json))`,
    )
    .join(', ')
  const representation = request.preferences.return === 'representation'
  const { body, count } = await jsonRows(
    tx,
    `update ${target.relation} set ${set} ${query.where} returning ${representation ? query.columns : '1'}`,
    [JSON.stringify(values), ...query.params],
  )
  const total = request.preferences.count === 'exact' ? count : null
  const headers = { 'Content-Range': contentRange(0, count, total), ...applied }
  if (representation) return rowsResponse(request, 200, body, count, headers)
  return new Response(null, { status: 204, headers })
}

/** POST: insert the rows; `on_conflict` with a resolution preference becomes ON CONFLICT. */
async function insertRows(tx: Queryable, request: RestRequest, target: Target, rows: Rows) {
  const { preferences, url } = request
  if (preferences.return === 'headers-only') {
    refuse(
      400,
      'PGRST127',
      'Feature not implemented',
      'The local stand-in answers return=minimal or return=representation, not return=headers-only.',
    )
  }
  const columns = Object.keys(rows[0] ?? {})
  const list = columns.map(quote).join(', ')
  const conflictColumns = url.searchParams.get('on_conflict')
  const resolution = preferences.resolution
  let onConflict = ''
  if (resolution) {
    const keys = (conflictColumns ?? 'id').split(',').map((key) => quote(key.trim()))
    onConflict =
      resolution === 'ignore-duplicates'
        ? `on conflict (${keys.join(', ')}) do nothing`
        : `on conflict (${keys.join(', ')}) do update set ${columns.map((column) => `${quote(column)} = excluded.${quote(column)}`).join(', ')}`
  }
  // Returning a column needs SELECT on it, exactly as with PostgREST: anon gets 401 for
  // return=representation, and for merge-duplicates (which counts the rows it inserted).
  const representation = preferences.return === 'representation'
  const selected = parseQuery(url.searchParams).columns
  const returned = representation
    ? selected === '*'
      ? target.columns.map(quote).join(', ')
      : selected
    : null
  const inserted = resolution === 'merge-duplicates' ? '(xmax = 0)' : 'true'
  const [result] = await tx.query<{ body: string; count: number; inserted: number }>(
    `with mutated as (
       insert into ${target.relation} ${list ? `(${list}) ` : ''}select ${list} from json_populate_recordset(null::${target.relation}, $1::json) ${onConflict}
       returning ${inserted} as pgrst_inserted${returned ? `, ${returned}` : ''})
     select (select coalesce(json_agg(selected), '[]')::text
               from (select ${returned ?? '1'} from mutated) as selected) as body,
            count(*)::int as count, count(*) filter (where pgrst_inserted)::int as inserted
       from mutated`,
    [JSON.stringify(rows)],
  )
  const count = result?.count ?? 0
  // PostgREST: 200 when merge-duplicates inserted nothing (every row was an update), else 201.
  const status = resolution === 'merge-duplicates' && !result?.inserted ? 200 : 201
  const headers = {
    'Content-Range': `*/${preferences.count === 'exact' ? count : '*'}`,
    ...preferenceApplied(preferences, {
      insert: { resolution: target.hasPrimaryKey || conflictColumns !== null },
    }),
  }
  if (representation) {
    return new Response(result?.body ?? '[]', {
      status,
      headers: { 'Content-Type': JSON_UTF8, ...headers },
    })
  }
  return new Response(null, { status, headers })
}

/**
 * PostgREST's `response.status` setting: a function may choose its answer's status without an
 * error, so the request still commits (public.add_to_thread's 404 keeps the miss it counted).
 */
async function chosenStatus(tx: Queryable, otherwise: number): Promise<number> {
  const [setting] = await tx.query<{ status: string | null }>(
    `select nullif(current_setting('response.status', true), '') as status`,
  )
  const status = Number(setting?.status)
  return Number.isInteger(status) && status >= 100 && status <= 599 ? status : otherwise
}

/** POST /rpc/<function>: named arguments from the body; a set as an array, a value as itself. */
async function callFunction(
  tx: Queryable,
  request: RestRequest,
  name: string,
  args: Row,
): Promise<Response> {
  const [found] = await tx.query<{ returns_set: boolean; returns_void: boolean }>(
    `select p.proretset as returns_set, p.prorettype = 'void'::regtype as returns_void
       from pg_catalog.pg_proc as p join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
      where n.nspname = $2 and p.proname = $1
      limit 1`,
    [name, request.schema],
  )
  if (!found) {
    refuse(
      404,
      'PGRST202',
      `Could not find the function ${request.schema}.${name} without parameters in the schema cache`,
    )
  }
  const names = Object.keys(args)
  const call = `${quote(request.schema)}.${quote(name)}(${names.map((arg, index) => `${quote(arg)} => $${index + 1}`).join(', ')})`
  const values = names.map((arg) => args[arg])
  const applied = preferenceApplied(request.preferences, 'call')
  if (found.returns_void) {
    await tx.query(`select ${call}`, values)
    return new Response(null, { status: 204, headers: applied })
  }
  // A function's rows are all its answer: Content-Range counts them (a value is one row).
  const { body, count } = found.returns_set
    ? await jsonRows(tx, `select * from ${call}`, values)
    : await tx
        .query<{ body: string }>(`select to_json(${call})::text as body`, values)
        .then(([result]) => ({ body: result?.body ?? 'null', count: 1 }))
  const total = request.preferences.count === 'exact' ? count : null
  const headers = { 'Content-Range': contentRange(0, count, total), ...applied }
  const status = await chosenStatus(tx, 200)
  if (found.returns_set) return rowsResponse(request, status, body, count, headers)
  return new Response(body, { status, headers: { 'Content-Type': JSON_UTF8, ...headers } })
}

/** Runs the request as PostgREST does: one transaction, the role and request.* settings first. */
async function runRequest(db: Database, request: RestRequest, segments: string[]) {
  const { c } = request
  const [first = '', second] = segments
  if (first === 'rpc' && second !== undefined) {
    if (c.req.method !== 'POST') refuse(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`)
    const body = await c.req.arrayBuffer()
    const [args = {}] = body.byteLength ? parseRows(c.req.header('content-type'), body) : []
    return db.transaction(async (tx: Queryable) => {
      await enterRequest(tx, request, null, `/rpc/${second}`)
      return callFunction(tx, request, second, args)
    })
  }
  const rows = ['POST', 'PATCH'].includes(c.req.method)
    ? parseRows(c.req.header('content-type'), await c.req.arrayBuffer())
    : []
  return db.transaction(async (tx: Queryable) => {
    const target = await enterRequest(tx, request, first, `/${first}`, (found) => {
      requireRelation(found, request.schema, first)
      requireColumns(found, first, Object.keys(rows[0] ?? {}))
    })
    const probe = METHOD_PROBES[c.req.method]
    if (probe) {
      await tx.query(probe(target.relation, quote(target.columns[0] ?? 'id')))
      refuse(
        400,
        'PGRST127',
        'Feature not implemented',
        'The local stand-in serves GET, HEAD, POST and PATCH.',
      )
    }
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return readRows(tx, request, target)
    if (c.req.method === 'PATCH') return updateRows(tx, request, target, rows[0] ?? {})
    return insertRows(tx, request, target, rows)
  })
}

/**
 * A path segment's %-escapes decoded once, as PostgREST decodes them: bytes that are not UTF-8
 * become U+FFFD (so the name is simply not found). Malformed escapes never get here: the gateway
 * refuses them (http-api.ts).
 */
function decodeSegment(segment: string): string {
  const bytes = Buffer.from(
    segment.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  )
  return new TextDecoder().decode(bytes)
}

export const invalidPath = () =>
  postgrestError(
    404,
    'PGRST125',
    'Invalid path specified in request URL',
    null,
    'The local stand-in serves /rest/v1/<table>, /rest/v1/rpc/<function>, /auth/v1, /storage/v1 and GET /health.',
  )

/** The handler of `/rest/v1/*`. */
export function restRoute(db: Database, gateway: Gateway) {
  return async (c: Context): Promise<Response> => {
    let identity: Identity | null = null
    try {
      identity = await gateway.identify(c)
      const schema = requestedSchema(c)
      if (!SERVED_METHODS.includes(c.req.method)) {
        return postgrestError(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`)
      }
      const url = new URL(c.req.url)
      const segments = url.pathname
        .slice('/rest/v1/'.length)
        .split('/')
        .filter(Boolean)
        .map(decodeSegment)
      const isRpc = segments[0] === 'rpc' && segments.length === 2
      if (!isRpc && segments.length !== 1) return invalidPath()
      const preferences = parsePreferences(c.req.header('prefer'))
      return await runRequest(db, { c, identity, schema, preferences, url }, segments)
    } catch (error) {
      return errorResponse(error, identity !== null && identity.role !== 'anon')
    }
  }
}
