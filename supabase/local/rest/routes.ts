import type { Context } from 'hono'
import type { Database, Queryable } from '../database'
import type { Gateway, Identity } from '../gateway'
import { parseRows, type Row } from './body'
import { errorResponse, JSON_UTF8, notEmulated, postgrestError, refuse } from './errors'
import { parseQuery, quote } from './query'
import { enterRequest, type RestRequest, type Target } from './request'

/**
 * `/rest/v1/<table>` and `/rest/v1/rpc/<function>` as PostgREST v14 answers the calls this project
 * makes: the site's and the inbox's inserts, the inbox's reads (select, filters, order, limit and
 * offset, one object) and its status update (PATCH), and the functions the site, the inbox and the
 * staff tools call, with the refusals that matter in PostgREST's order, codes and bodies. What no
 * client sends answers 400 as not emulated (errors.ts).
 */

/** Supabase's `[api] max_rows`: no GET answers more rows than this. */
export const MAX_ROWS = 1000

/**
 * The `Prefer` header: `return=minimal|representation` is served; `tx` and unknown preferences
 * are ignored, as Supabase's PostgREST ignores them; the other kinds PostgREST knows are refused.
 */
function wantsRepresentation(header: string | undefined): boolean {
  let representation: boolean | undefined
  for (const item of (header ?? '').split(',').map((part) => part.trim())) {
    const [kind = '', value] = item.split('=')
    if (kind === 'return' && (value === 'minimal' || value === 'representation'))
      representation ??= value === 'representation'
    else if (
      ['return', 'count', 'resolution', 'handling', 'missing', 'max-affected'].includes(kind)
    )
      notEmulated(`Prefer: ${item}`)
  }
  return representation ?? false
}

/**
 * The schema a request names (`Accept-Profile` for reads, `Content-Profile` for writes): the
 * clients name `public`; any schema Supabase does not expose is PostgREST's 406.
 */
function checkProfile(c: Context): void {
  const header = c.req.method === 'GET' ? 'accept-profile' : 'content-profile'
  const schema = c.req.header(header)
  if (schema === undefined || schema === 'public') return
  if (schema === 'graphql_public') notEmulated('the graphql_public schema')
  refuse(
    406,
    'PGRST106',
    `Invalid schema: ${schema}`,
    null,
    'Only the following schemas are exposed: public, graphql_public',
  )
}

/** pg-safeupdate's refusal, as Supabase loads it for every API request. */
const safeupdate = (command: 'UPDATE' | 'DELETE') =>
  Object.assign(new Error(`${command} requires a WHERE clause`), { code: '21000' })

/** `lower-upper/*`: the rows answered, never a total (counts are not emulated). */
const contentRange = (lower: number, rows: number) =>
  rows > 0 ? `${lower}-${lower + rows - 1}/*` : '*/*'

/** The rows as JSON text: an array, or one object where it was asked for (`.single()`). */
function rowsResponse(
  request: RestRequest,
  status: number,
  body: string,
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
    const [row] = JSON.parse(body) as unknown[]
    return new Response(JSON.stringify(row), {
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

/** GET: select with filters, order, `offset` and `limit` (at most MAX_ROWS). */
async function readRows(tx: Queryable, request: RestRequest, target: Target): Promise<Response> {
  const query = parseQuery(request.url.searchParams)
  const offset = query.offset ?? 0
  const limit = Math.min(query.limit ?? MAX_ROWS, MAX_ROWS)
  const { body, count } = await jsonRows(
    tx,
    `select ${query.columns} from ${target.relation} ${query.where} ${query.orderBy} limit ${limit} offset ${offset}`,
    query.params,
  )
  return rowsResponse(request, 200, body, count, { 'Content-Range': contentRange(offset, count) })
}

/** PATCH: the body's columns set on the rows the filters select; never without a filter. */
async function updateRows(tx: Queryable, request: RestRequest, target: Target, values: Row) {
  const columns = Object.keys(values)
  if (columns.length === 0)
    return new Response(null, { status: 204, headers: { 'Content-Range': '*/*' } })
  const query = parseQuery(request.url.searchParams, 2)
  if (!query.where) throw safeupdate('UPDATE')
  const set = columns
    .map(
      (column) =>
        `${quote(column)} = (select ${quote(column)} from json_populate_record(null::${target.relation}, $1::json))`,
    )
    .join(', ')
  const { body, count } = await jsonRows(
    tx,
    `update ${target.relation} set ${set} ${query.where} returning ${request.representation ? query.columns : '1'}`,
    [JSON.stringify(values), ...query.params],
  )
  const headers = { 'Content-Range': contentRange(0, count) }
  if (request.representation) return rowsResponse(request, 200, body, count, headers)
  return new Response(null, { status: 204, headers })
}

/** POST: the rows inserted; with `return=representation`, the `select=` columns come back. */
async function insertRows(tx: Queryable, request: RestRequest, target: Target, rows: Row[]) {
  const list = Object.keys(rows[0] ?? {})
    .map(quote)
    .join(', ')
  const insert = `insert into ${target.relation} ${list ? `(${list}) ` : ''}select ${list} from json_populate_recordset(null::${target.relation}, $1::json)`
  const headers = { 'Content-Range': '*/*' }
  if (!request.representation) {
    await tx.query(insert, [JSON.stringify(rows)])
    return new Response(null, { status: 201, headers })
  }
  // Returning a column needs SELECT on it, exactly as with PostgREST: anon gets 401.
  const selected = parseQuery(request.url.searchParams).columns
  const returned = selected === '*' ? target.columns.map(quote).join(', ') : selected
  const { body } = await jsonRows(tx, `${insert} returning ${returned}`, [JSON.stringify(rows)])
  return new Response(body, { status: 201, headers: { 'Content-Type': JSON_UTF8, ...headers } })
}

/** The rows of a table: read, inserted or updated; a DELETE only ever meets safeupdate. */
async function runTable(db: Database, request: RestRequest, name: string): Promise<Response> {
  const { c } = request
  if (c.req.method === 'GET' && c.req.header('range') !== undefined) notEmulated('the Range header')
  const rows = ['POST', 'PATCH'].includes(c.req.method)
    ? parseRows(c.req.header('content-type'), await c.req.arrayBuffer())
    : []
  return db.transaction(async (tx) => {
    const target = await enterRequest(tx, request, name, rows[0] ?? {})
    if (c.req.method === 'GET') return readRows(tx, request, target)
    if (c.req.method === 'PATCH') return updateRows(tx, request, target, rows[0] ?? {})
    if (c.req.method === 'POST') return insertRows(tx, request, target, rows)
    if (!parseQuery(request.url.searchParams).where) throw safeupdate('DELETE')
    return notEmulated('DELETE requests')
  })
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
async function callFunction(db: Database, request: RestRequest, name: string): Promise<Response> {
  const { c } = request
  if (c.req.method !== 'POST') refuse(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`)
  const body = await c.req.arrayBuffer()
  const [args = {}] = body.byteLength ? parseRows(c.req.header('content-type'), body) : []
  return db.transaction(async (tx) => {
    await enterRequest(tx, request, null, {}, `/rpc/${name}`)
    const [found] = await tx.query<{ returns_set: boolean; returns_void: boolean }>(
      `select p.proretset as returns_set, p.prorettype = 'void'::regtype as returns_void
         from pg_catalog.pg_proc as p join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proname = $1
        limit 1`,
      [name],
    )
    if (!found) {
      refuse(
        404,
        'PGRST202',
        `Could not find the function public.${name} without parameters in the schema cache`,
      )
    }
    const names = Object.keys(args)
    const call = `public.${quote(name)}(${names.map((arg, index) => `${quote(arg)} => $${index + 1}`).join(', ')})`
    const values = names.map((arg) => args[arg])
    if (found.returns_void) {
      await tx.query(`select ${call}`, values)
      return new Response(null, { status: 204 })
    }
    const { body: answer, count } = found.returns_set
      ? await jsonRows(tx, `select * from ${call}`, values)
      : await tx
          .query<{ body: string }>(`select to_json(${call})::text as body`, values)
          .then(([result]) => ({ body: result?.body ?? 'null', count: 1 }))
    const status = await chosenStatus(tx, 200)
    if (found.returns_set) return rowsResponse(request, status, answer, count, {})
    return new Response(answer, { status, headers: { 'Content-Type': JSON_UTF8 } })
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
      checkProfile(c)
      const { method } = c.req
      if (method === 'HEAD' || method === 'PUT') notEmulated(`${method} requests`)
      if (!['GET', 'POST', 'PATCH', 'DELETE'].includes(method))
        return postgrestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`)
      const url = new URL(c.req.url)
      const segments = url.pathname
        .slice('/rest/v1/'.length)
        .split('/')
        .filter(Boolean)
        .map(decodeSegment)
      const [first = '', second] = segments
      const isRpc = first === 'rpc' && segments.length === 2
      if (!isRpc && segments.length !== 1) return invalidPath()
      const representation = wantsRepresentation(c.req.header('prefer'))
      const request = { c, identity, url, representation }
      return await (isRpc ? callFunction(db, request, second ?? '') : runTable(db, request, first))
    } catch (error) {
      return errorResponse(error, identity !== null && identity.role !== 'anon')
    }
  }
}
