import { asPgError, StorageFaultError, type PgError } from './database'

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
