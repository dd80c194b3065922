import type { IncomingHttpHeaders } from 'node:http'
import { checkApiKey } from './api-keys'
import {
  gatewayError,
  invalidPath,
  JSON_CONTENT_TYPE,
  notImplemented,
  pgErrorResponse,
  postgrestError,
  type ApiResponse,
} from './api-response'
import { asPgError, DatabaseBusyError, type Database } from './database'
import { buildInsert, parseInsertBody } from './insert-request'
import { ANON_ROLE, identifyRequest, runAsRequestRole } from './request-role'
import type { SchemaCache } from './schema-cache'

/**
 * `/rest/v1/*` as Supabase's gateway and PostgREST v14 answer it, for the one call the site makes
 * (an insert). Checks run in PostgREST's order (src/PostgREST/App.hs, ApiRequest.hs, Plan.hs), so
 * a request with several faults gets the same error as in production.
 */

export type RestRequest = {
  method: string
  /** The path after `/rest/v1`, e.g. `/contact_submissions`. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: Buffer
}

export type RestApi = {
  db: Database
  schemaCache: SchemaCache
  jwtSecret: string
}

/** PostgREST's methods; anything else (TRACE, CONNECT, made-up verbs) is PGRST117. */
const POSTGREST_METHODS = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'])

const STAND_IN_SCOPE =
  'The local stand-in implements only inserts (POST /rest/v1/<table>); read rows with `npm run submissions` or psql.'

function pathSegments(path: string): string[] | null {
  try {
    return path
      .split('/')
      .filter((segment) => segment !== '')
      .map(decodeURIComponent)
  } catch {
    return null // malformed percent-encoding
  }
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

export async function handleRestRequest(api: RestApi, request: RestRequest): Promise<ApiResponse> {
  const { method, headers } = request

  // 1. The gateway: a project API key is required; it supplies the bearer token if none was sent.
  const gateway = checkApiKey(
    header(headers, 'apikey') ?? request.query.get('apikey') ?? undefined,
    header(headers, 'authorization'),
    api.jwtSecret,
  )
  if (!gateway.ok) return gatewayError(401, gateway.message, gateway.hint)

  // 2. PostgREST's JWT check, before anything about the request itself.
  const identity = identifyRequest(gateway.authorization, api.jwtSecret)
  if ('status' in identity) return identity

  // 3. Method, then schema profile.
  if (!POSTGREST_METHODS.has(method)) {
    return postgrestError(405, { code: 'PGRST117', message: `Unsupported HTTP method: ${method}` })
  }
  const profileHeader = method === 'GET' || method === 'HEAD' ? 'accept-profile' : 'content-profile'
  const schema = header(headers, profileHeader) ?? api.schemaCache.exposedSchemas[0] ?? 'public'
  if (!api.schemaCache.exposedSchemas.includes(schema)) {
    return postgrestError(406, {
      code: 'PGRST106',
      message: `Invalid schema: ${schema}`,
      hint: `Only the following schemas are exposed: ${api.schemaCache.exposedSchemas.join(', ')}`,
    })
  }

  // 4. The resource path.
  const segments = pathSegments(request.path)
  if (segments === null) return invalidPath()
  if (segments.length === 0) {
    return notImplemented(
      `The local stand-in does not serve the OpenAPI description. ${STAND_IN_SCOPE}`,
    )
  }
  if (segments[0] === 'rpc' && segments.length === 2) {
    return notImplemented(`The local stand-in does not run functions (RPC). ${STAND_IN_SCOPE}`)
  }
  const [tableName] = segments
  if (segments.length !== 1 || tableName === undefined) return invalidPath()

  // 5. The body is parsed before the table is looked up (PGRST102 wins over PGRST205).
  const rows =
    method === 'POST' ? parseInsertBody(header(headers, 'content-type'), request.body) : []
  if (!Array.isArray(rows)) return rows

  const table = api.schemaCache.findTable(schema, tableName)
  if (!table) {
    return postgrestError(404, {
      code: 'PGRST205',
      message: `Could not find the table '${schema}.${tableName}' in the schema cache`,
    })
  }
  if (method !== 'POST') return notImplemented(STAND_IN_SCOPE)

  const statement = buildInsert({
    table,
    rows,
    query: request.query,
    prefer: header(headers, 'prefer'),
  })
  if ('status' in statement) return statement

  // 6. One transaction as the request's role: grants, constraints and RLS decide.
  try {
    const result = await runAsRequestRole(
      api.db,
      {
        identity,
        method,
        path: `/${tableName}`,
        headers,
        searchPath: [schema, 'extensions'],
      },
      (tx) => tx.query<{ body?: string }>(statement.sql, statement.params),
    )
    const responseHeaders: Record<string, string> = { 'Content-Range': '*/*' }
    if (statement.preferenceApplied.length > 0) {
      responseHeaders['Preference-Applied'] = statement.preferenceApplied.join(', ')
    }
    if (statement.returnsRows) {
      return {
        status: 201,
        headers: { ...responseHeaders, 'Content-Type': JSON_CONTENT_TYPE },
        body: result[0]?.body ?? '[]',
      }
    }
    // PostgREST's default for writes (return=minimal): no body, hence no Content-Type.
    return { status: 201, headers: responseHeaders, body: null }
  } catch (error) {
    return databaseErrorResponse(error, identity.role !== ANON_ROLE)
  }
}

function databaseErrorResponse(error: unknown, authenticated: boolean): ApiResponse {
  const pgError = asPgError(error)
  if (pgError) return pgErrorResponse(pgError, authenticated)
  if (error instanceof DatabaseBusyError) {
    return postgrestError(504, {
      code: 'PGRST003',
      message: 'Timed out acquiring connection from connection pool.',
    })
  }
  // Connection-level failures (PostgreSQL went away): PostgREST answers 503 and retries.
  return postgrestError(503, {
    code: 'PGRST001',
    message: 'Database client error. Retrying the connection.',
    details: error instanceof Error ? error.message : null,
  })
}
