import type { Context } from 'hono'
import type { Database, Queryable } from './database'
import type { Gateway, Identity } from './gateway'
import { errorResponse, JSON_UTF8, postgrestError, refuse } from './postgrest-errors'
import { parseQuery, quote } from './rest-query'

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

/** Methods not served, refused as the role's grants refuse them (then as not implemented). */
const METHOD_PROBES: Record<string, (table: string, column: string) => string> = {
  HEAD: (table) => `select from ${table} limit 0`,
  DELETE: (table) => `delete from ${table} where false`,
  PUT: (table, column) => `update ${table} set ${column} = default where false`,
}
const SERVED_METHODS = ['GET', 'POST', 'PATCH', ...Object.keys(METHOD_PROBES)]

type Target = { relation: string; columns: string[] }

/**
 * What PostgREST does before any statement: find the relation (or function) in the schema cache,
 * switch to the request's role (only one granted to authenticator), and set the request.* GUCs
 * the policies and triggers read.
 */
async function enterRequest(
  tx: Queryable,
  c: Context,
  identity: Identity,
  name: string | null,
  path: string,
  check: (target: Target) => void = () => {},
): Promise<Target> {
  const relation = name === null ? null : `public.${quote(name)}`
  const [found] = await tx.query<{ columns: string[] | null; may_switch: boolean | null }>(
    `select (select array_agg(attname::text order by attnum) from pg_catalog.pg_attribute
              where attrelid = to_regclass($1) and attnum > 0 and not attisdropped) as columns,
            (select pg_catalog.pg_has_role('authenticator', oid, 'MEMBER') from pg_catalog.pg_roles
              where rolname = $2) as may_switch`,
    [relation, identity.role],
  )
  const target = { relation: relation ?? '', columns: found?.columns ?? [] }
  // What PostgREST knows from its schema cache is refused before it opens a transaction.
  check(target)
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
  await tx.query(
    `select set_config('search_path', 'public, extensions', true), set_config('request.jwt.claims', $1, true),
            set_config('request.method', $2, true), set_config('request.path', $3, true),
            set_config('request.headers', $4, true), set_config('role', $5, true)`,
    [JSON.stringify(identity.claims), c.req.method, path, JSON.stringify(headers), identity.role],
  )
  return target
}

function requireRelation(target: Target, name: string): void {
  if (target.columns.length === 0)
    refuse(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`)
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

const prefers = (c: Context, preference: string) =>
  (c.req.header('prefer') ?? '').split(/[,\s]+/).includes(preference)

/** The rows as JSON text, in PostgREST's answer: an array, or one object where it was asked for. */
function rowsResponse(c: Context, status: number, body: string, count: number): Response {
  const range = count === 0 ? '*/*' : `0-${count - 1}/*`
  if ((c.req.header('accept') ?? '').includes('application/vnd.pgrst.object+json')) {
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
      headers: {
        'Content-Type': 'application/vnd.pgrst.object+json; charset=utf-8',
        'Content-Range': range,
      },
    })
  }
  return new Response(body, {
    status,
    headers: { 'Content-Type': JSON_UTF8, 'Content-Range': range },
  })
}

/** Runs `sql` wrapped so the database returns its rows as one JSON array, and their count. */
async function jsonRows(tx: Queryable, sql: string, params: unknown[]) {
  const [result] = await tx.query<{ body: string; count: number }>(
    `with rows as (${sql}) select coalesce(json_agg(rows), '[]')::text as body, count(*)::int as count from rows`,
    params,
  )
  return { body: result?.body ?? '[]', count: result?.count ?? 0 }
}

/** GET: select with filters, order, limit and offset. */
async function readRows(tx: Queryable, c: Context, target: Target): Promise<Response> {
  const query = parseQuery(new URL(c.req.url).searchParams)
  const { body, count } = await jsonRows(
    tx,
    `select ${query.columns} from ${target.relation} ${query.where} ${query.orderBy} ${query.window}`,
    query.params,
  )
  return rowsResponse(c, 200, body, count)
}

/** PATCH: the body's columns set on the rows the filters select. */
async function updateRows(
  tx: Queryable,
  c: Context,
  target: Target,
  values: Row,
): Promise<Response> {
  const columns = Object.keys(values)
  if (columns.length === 0)
    return new Response(null, { status: 204, headers: { 'Content-Range': '*/*' } })
  const query = parseQuery(new URL(c.req.url).searchParams, 2)
  const set = columns
    .map(
      (column) =>
        `${quote(column)} = (select ${quote(column)} from json_populate_record(null::${target.relation}, $1::json))`,
    )
    .join(', ')
  const update = `update ${target.relation} set ${set} ${query.where}`
  const params = [JSON.stringify(values), ...query.params]
  if (!prefers(c, 'return=representation')) {
    await tx.query(update, params)
    return new Response(null, { status: 204, headers: { 'Content-Range': '*/*' } })
  }
  const { body, count } = await jsonRows(tx, `${update} returning ${query.columns}`, params)
  return rowsResponse(c, 200, body, count)
}

/** POST: insert the rows; `on_conflict` with a resolution preference becomes ON CONFLICT. */
async function insertRows(tx: Queryable, c: Context, target: Target, rows: Rows) {
  const columns = Object.keys(rows[0] ?? {})
  const list = columns.map(quote).join(', ')
  const conflictColumns = new URL(c.req.url).searchParams.get('on_conflict')
  let onConflict = ''
  if (prefers(c, 'resolution=ignore-duplicates') || prefers(c, 'resolution=merge-duplicates')) {
    const keys = (conflictColumns ?? 'id').split(',').map((key) => quote(key.trim()))
    onConflict = prefers(c, 'resolution=ignore-duplicates')
      ? `on conflict (${keys.join(', ')}) do nothing`
      : `on conflict (${keys.join(', ')}) do update set ${columns.map((column) => `${quote(column)} = excluded.${quote(column)}`).join(', ')}`
  }
  const insert = `insert into ${target.relation} ${list ? `(${list}) ` : ''}select ${list} from json_populate_recordset(null::${target.relation}, $1::json) ${onConflict}`
  // `returning *` needs SELECT on the row, exactly as with PostgREST: anon gets 401 here.
  if (prefers(c, 'return=representation')) {
    const { body } = await jsonRows(tx, `${insert} returning *`, [JSON.stringify(rows)])
    return new Response(body, {
      status: 201,
      headers: { 'Content-Type': JSON_UTF8, 'Content-Range': '*/*' },
    })
  }
  await tx.query(insert, [JSON.stringify(rows)])
  return new Response(null, { status: 201, headers: { 'Content-Range': '*/*' } })
}

/** POST /rpc/<function>: named arguments from the body; a set as an array, a value as itself. */
async function callFunction(tx: Queryable, c: Context, name: string, args: Row): Promise<Response> {
  const [found] = await tx.query<{ returns_set: boolean; returns_void: boolean }>(
    `select p.proretset as returns_set, p.prorettype = 'void'::regtype as returns_void
       from pg_catalog.pg_proc as p
      where p.pronamespace = 'public'::regnamespace and p.proname = $1
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
  if (found.returns_set) {
    const { body: rows, count } = await jsonRows(tx, `select * from ${call}`, values)
    return rowsResponse(c, 200, rows, count)
  }
  const [result] = await tx.query<{ body: string }>(`select to_json(${call})::text as body`, values)
  return new Response(result?.body ?? 'null', {
    status: 200,
    headers: { 'Content-Type': JSON_UTF8 },
  })
}

/** Runs the request as PostgREST does: one transaction, the role and request.* settings first. */
async function runRequest(db: Database, c: Context, identity: Identity, segments: string[]) {
  const [first = '', second] = segments
  if (first === 'rpc' && second !== undefined) {
    if (c.req.method !== 'POST') refuse(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`)
    const body = await c.req.arrayBuffer()
    const [args = {}] = body.byteLength ? parseRows(c.req.header('content-type'), body) : []
    return db.transaction(async (tx: Queryable) => {
      await enterRequest(tx, c, identity, null, `/rpc/${second}`)
      return callFunction(tx, c, second, args)
    })
  }
  const rows = ['POST', 'PATCH'].includes(c.req.method)
    ? parseRows(c.req.header('content-type'), await c.req.arrayBuffer())
    : []
  return db.transaction(async (tx: Queryable) => {
    const target = await enterRequest(tx, c, identity, first, `/${first}`, (found) => {
      requireRelation(found, first)
      requireColumns(found, first, Object.keys(rows[0] ?? {}))
    })
    const probe = METHOD_PROBES[c.req.method]
    if (probe) {
      await tx.query(probe(target.relation, quote(target.columns[0] ?? 'id')))
      refuse(
        400,
        'PGRST127',
        'Feature not implemented',
        'The local stand-in serves GET, POST and PATCH.',
      )
    }
    if (c.req.method === 'GET') return readRows(tx, c, target)
    if (c.req.method === 'PATCH') return updateRows(tx, c, target, rows[0] ?? {})
    return insertRows(tx, c, target, rows)
  })
}

export const invalidPath = () =>
  postgrestError(
    404,
    'PGRST125',
    'Invalid path specified in request URL',
    null,
    'The local stand-in serves /rest/v1/<table>, /rest/v1/rpc/<function>, /auth/v1 and GET /health.',
  )

/** The handler of `/rest/v1/*`. */
export function restRoute(db: Database, gateway: Gateway) {
  return async (c: Context): Promise<Response> => {
    let identity: Identity | null = null
    try {
      identity = await gateway.identify(c)
      if (!SERVED_METHODS.includes(c.req.method)) {
        return postgrestError(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`)
      }
      const segments = c.req.path
        .slice('/rest/v1/'.length)
        .split('/')
        .filter(Boolean)
        .map(decodeURIComponent)
      const isRpc = segments[0] === 'rpc' && segments.length === 2
      if (!isRpc && segments.length !== 1) return invalidPath()
      return await runRequest(db, c, identity, segments)
    } catch (error) {
      return errorResponse(error, identity !== null && identity.role !== 'anon')
    }
  }
}
