import { asPgError, StorageFaultError, type PgError } from '../database'

/**
 * PostgREST's answers when something is refused or fails: its error envelope, the SQLSTATE to
 * HTTP status table, `raise sqlstate 'PGRST'` responses, and the 503 of a database it cannot
 * reach. Bodies are never logged: they are visitors' messages.
 */

export const JSON_UTF8 = 'application/json; charset=utf-8'

export const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
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
export class Refusal extends Error {
  constructor(readonly response: Response) {
    super('refused')
  }
}

export function refuse(...args: Parameters<typeof postgrestError>): never {
  throw new Refusal(postgrestError(...args))
}

/** PostgREST's SQLSTATE → HTTP status table (mapSQLtoHTTP in src/PostgREST/Error.hs). */
function statusFor(error: PgError, authenticated: boolean): number {
  const { code, message } = error
  if (code === '42501') return authenticated ? 403 : 401
  // pg-safeupdate's refusal is the client's; any other cardinality violation is the server's.
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500
  if (code === '22023' && /^role .* does not exist$/.test(message)) return 401
  const custom = /^PT(\d{3})$/.exec(code)?.[1]
  if (custom) return Number(custom)
  // prettier-ignore
  const exact: Record<string, number> = { '23503': 409, '23505': 409, '25006': 405, '42P01': 404, '42883': 404, '42P17': 500, '53400': 500, '57P01': 503, P0001: 400 }
  // prettier-ignore
  const byClass: Record<string, number> = { '08': 503, '09': 500, '0L': 403, '0P': 403, '25': 500, '28': 403, '2D': 500, '38': 500, '39': 500, '3B': 500, '40': 500, '53': 503, '54': 500, '55': 500, '57': 500, '58': 500, F0: 500, HV: 500, P0: 500, XX: 500 }
  return exact[code] ?? byClass[code.slice(0, 2)] ?? 400
}

/**
 * `raise sqlstate 'PGRST' using message = '<JSON body>', detail = '{"status":…,"headers":{…}}'`,
 * parsed as PostgREST v14 parses it (parseRaisePGRST in src/PostgREST/Error.hs): MESSAGE needs
 * `code` and `message` (`details`, `hint` optional), DETAIL needs `status` and `headers` (a
 * `status_text` optional). Anything else is PostgREST's 500 PGRST121, never the status asked for.
 */
function raisedResponse(error: PgError): Response {
  const object = (text: string | null) => {
    try {
      const value: unknown = JSON.parse(text ?? '')
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : null
    } catch {
      return null
    }
  }
  const optionalText = (value: unknown) =>
    value === undefined || value === null || typeof value === 'string'
  const strings = (value: unknown): value is Record<string, string> =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string')
  const unparsable = (details: string, hint: string) =>
    postgrestError(
      500,
      'PGRST121',
      'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error',
      details,
      hint,
    )
  const body = object(error.message)
  if (
    typeof body?.code !== 'string' ||
    typeof body.message !== 'string' ||
    !optionalText(body.details) ||
    !optionalText(body.hint)
  ) {
    return unparsable(
      `Invalid JSON value for MESSAGE: '${error.message}'`,
      "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    )
  }
  const detailHint =
    "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'."
  if (error.detail === null)
    return unparsable('DETAIL is missing in the RAISE statement', detailHint)
  const detail = object(error.detail)
  if (
    typeof detail?.status !== 'number' ||
    !Number.isInteger(detail.status) ||
    // A status a Response cannot carry is refused too (the stand-in's limit, not PostgREST's).
    detail.status < 200 ||
    detail.status > 599 ||
    !strings(detail.headers) ||
    !optionalText(detail.status_text)
  ) {
    return unparsable(`Invalid JSON value for DETAIL: '${error.detail}'`, detailHint)
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  return postgrestError(
    detail.status,
    body.code,
    body.message,
    text(body.details),
    text(body.hint),
    detail.headers,
  )
}

export function errorResponse(error: unknown, authenticated: boolean): Response {
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

/**
 * What no client of this project sends is refused with PostgREST's "not implemented" rather than
 * half emulated: the real PostgREST (the contract suites' oracle) is the reference for it.
 */
export function notEmulated(what: string): never {
  return refuse(
    400,
    'PGRST127',
    'Feature not implemented',
    `The local stand-in does not emulate ${what}: no client of this project sends it.`,
  )
}
