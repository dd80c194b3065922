import type { PgError } from './database'

/**
 * Responses in the shapes the browser gets from Supabase: PostgREST's error envelope (v14,
 * src/PostgREST/Error.hs) and the gateway's plain `{message, hint}` errors. Headers common to all
 * responses (CORS) are added by the HTTP layer.
 */

export type ApiResponse = {
  status: number
  headers: Record<string, string>
  /** null: no body at all (no Content-Type either, as PostgREST does for empty bodies). */
  body: string | null
}

export type PostgrestErrorBody = {
  code: string
  details: string | null
  hint: string | null
  message: string
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers },
    body: JSON.stringify(value),
  }
}

export function postgrestError(
  status: number,
  error: { code: string; message: string; details?: string | null; hint?: string | null },
  headers: Record<string, string> = {},
): ApiResponse {
  // Keys in PostgREST's (alphabetical) order; absent details/hint are null, never missing.
  const body: PostgrestErrorBody = {
    code: error.code,
    details: error.details ?? null,
    hint: error.hint ?? null,
    message: error.message,
  }
  return jsonResponse(status, body, { 'Proxy-Status': `PostgREST; error=${error.code}`, ...headers })
}

/** Errors the API gateway answers itself (missing or wrong API key, body too large). */
export function gatewayError(status: number, message: string, hint: string): ApiResponse {
  return jsonResponse(status, { message, hint })
}

/** PostgREST's answer to what it could do and the stand-in does not (PGRST127). */
export const notImplemented = (details: string) =>
  postgrestError(400, { code: 'PGRST127', message: 'Feature not implemented', details })

/** An address that names no resource (PGRST125): never an empty 404, which supabase-js reads as success. */
export const invalidPath = (hint?: string) =>
  postgrestError(404, { code: 'PGRST125', message: 'Invalid path specified in request URL', hint })

/** PostgREST's SQLSTATE -> HTTP status table (mapSQLtoHTTP), including its special cases. */
export function httpStatusForPgError(error: PgError, authenticated: boolean): number {
  const { code, message } = error
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '53400': 500,
    '57P01': 503,
    P0001: 400,
    '42P01': 404,
    '42P17': 500,
  }
  const byCode = exact[code]
  if (byCode !== undefined) return byCode
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500
  if (code === '22023')
    return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400
  if (code === '42883') return message.startsWith('function xmlagg(') ? 406 : 404
  if (code === '42501') return authenticated ? 403 : 401
  const custom = /^PT(\d{3})$/.exec(code)
  if (custom?.[1]) return Number(custom[1])
  const byClass: Record<string, number> = {
    '08': 503,
    '09': 500,
    '0L': 403,
    '0P': 403,
    '25': 500,
    '28': 403,
    '2D': 500,
    '38': 500,
    '39': 500,
    '3B': 500,
    '40': 500,
    '53': 503,
    '54': 500,
    '55': 500,
    '57': 500,
    '58': 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  }
  return byClass[code.slice(0, 2)] ?? 400
}

/**
 * A database error as PostgREST answers it. `authenticated` means the request's role is not the
 * anonymous role: a privilege error is then 403 instead of 401 + `WWW-Authenticate: Bearer`.
 */
export function pgErrorResponse(error: PgError, authenticated: boolean): ApiResponse {
  if (error.code === 'PGRST') return raisedPgrstResponse(error)
  const status = httpStatusForPgError(error, authenticated)
  return postgrestError(
    status,
    { code: error.code, message: error.message, details: error.detail, hint: error.hint },
    status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
  )
}

/**
 * `raise sqlstate 'PGRST' using message = '{"code":…,"message":…}', detail = '{"status":…,
 * "headers":{…}}'`: PostgREST's way for SQL (a trigger, a policy helper) to choose the whole
 * response. Kept so that future database-side limits behave here as in production.
 */
function raisedPgrstResponse(error: PgError): ApiResponse {
  const parsed = (text: string | null): Record<string, unknown> | null => {
    try {
      const value: unknown = text === null ? null : JSON.parse(text)
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : null
    } catch {
      return null
    }
  }
  const message = parsed(error.message)
  if (!message || typeof message.code !== 'string' || typeof message.message !== 'string') {
    return postgrestError(500, {
      code: 'PGRST121',
      message: 'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error',
      details: `Invalid JSON value for MESSAGE: '${error.message}'`,
      hint: "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    })
  }
  const detail = parsed(error.detail)
  if (
    !detail ||
    typeof detail.status !== 'number' ||
    typeof detail.headers !== 'object' ||
    detail.headers === null
  ) {
    return postgrestError(500, {
      code: 'PGRST121',
      message: 'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error',
      details:
        error.detail === null
          ? 'DETAIL is missing in the RAISE statement'
          : `Invalid JSON value for DETAIL: '${error.detail}'`,
      hint: "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.",
    })
  }
  const headers = Object.fromEntries(
    Object.entries(detail.headers as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
  return postgrestError(
    detail.status,
    {
      code: message.code,
      message: message.message,
      details: typeof message.details === 'string' ? message.details : null,
      hint: typeof message.hint === 'string' ? message.hint : null,
    },
    headers,
  )
}
