import type { Context } from 'hono'
import type { Database, Queryable } from './database'
import type { Gateway, Identity } from './gateway'
import { errorResponse, JSON_UTF8, postgrestError, refuse } from './postgrest-errors'

/**
 * `/rest/v1/<table>` as PostgREST v14 answers the one call the site makes (an insert,
 * return=minimal), with the refusals that matter in PostgREST's order, codes and error bodies.
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

/** Read-only and update methods are not served, but refused as the role's grants refuse them. */
const METHOD_PROBES: Record<string, (table: string, column: string) => string> = {
  GET: (table) => `select from ${table} limit 0`,
  HEAD: (table) => `select from ${table} limit 0`,
  DELETE: (table) => `delete from ${table} where false`,
  PATCH: (table, column) => `update ${table} set ${column} = default where false`,
  PUT: (table, column) => `update ${table} set ${column} = default where false`,
}

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

export const invalidPath = () =>
  postgrestError(
    404,
    'PGRST125',
    'Invalid path specified in request URL',
    null,
    'The local stand-in serves POST /rest/v1/<table> and GET /health.',
  )

/** The handler of `/rest/v1/*`. */
export function restRoute(db: Database, gateway: Gateway) {
  return async (c: Context): Promise<Response> => {
    let identity: Identity | null = null
    try {
      identity = await gateway.identify(c)
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
  }
}
