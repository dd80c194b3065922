import type { IncomingHttpHeaders } from 'node:http'

/**
 * CORS as the browser meets it on Supabase: the gateway (Kong's `cors` plugin with no options, as
 * the CLI configures it) answers preflights itself, and every actual response carries
 * `Access-Control-Allow-Origin: *` plus the headers PostgREST exposes.
 */

/** Kong's default list: all nine methods. */
const ALLOWED_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT'

/** PostgREST's exposed headers (src/PostgREST/Cors.hs), so scripts can read Content-Range etc. */
const EXPOSED_HEADERS =
  'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit'

export function isPreflight(method: string, headers: IncomingHttpHeaders): boolean {
  return (
    method === 'OPTIONS' &&
    headers.origin !== undefined &&
    headers['access-control-request-method'] !== undefined
  )
}

export function preflightHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
  }
  // Echoed, not listed: supabase-js adds headers over time (content-profile, prefer,
  // x-client-info…), and a fixed list that misses one makes the browser drop the request.
  const requested = headers['access-control-request-headers']
  if (requested !== undefined) result['Access-Control-Allow-Headers'] = requested
  return result
}

/** Added to every actual response, errors included, or the browser hides the error body. */
export function actualResponseHeaders(): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
  }
}
