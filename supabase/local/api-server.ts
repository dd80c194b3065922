import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { gatewayError, invalidPath, jsonResponse, postgrestError, type ApiResponse } from './api-response'
import { actualResponseHeaders, isPreflight, preflightHeaders } from './cors'
import type { Database } from './database'
import { handleRestRequest, type RestApi } from './rest-api'

/**
 * The HTTP face of the stand-in at the API gateway's address: CORS preflights, `/rest/v1/*`, and
 * `/health` for readiness checks. Bodies are never logged: they are visitors' private messages.
 */

/** Largest accepted body. The hosted API has no lower limit (the CHECK constraints answer long
 * messages with 400), so nothing under 1 MiB may be refused here. */
export const MAX_BODY_BYTES = 1024 * 1024
/** Past this, an oversized body is no longer read through: the connection is closed after the 413. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES

export type ApiServerOptions = RestApi & {
  /** One line per request: method, path, status, duration. */
  log?: (line: string) => void
}

type BodyResult = { kind: 'complete'; body: Buffer } | { kind: 'too-large' } | { kind: 'aborted' }

function readBody(request: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (result: BodyResult) => {
      if (settled) return
      settled = true
      resolve(result)
    }
    if (Number(request.headers['content-length']) > MAX_DRAIN_BYTES) settle({ kind: 'too-large' })
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      // Past the limit the body is read and dropped, so the client can still read the 413.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
      else if (size > MAX_DRAIN_BYTES) settle({ kind: 'too-large' })
    })
    request.on('end', () =>
      settle(
        size > MAX_BODY_BYTES
          ? { kind: 'too-large' }
          : { kind: 'complete', body: Buffer.concat(chunks) },
      ),
    )
    request.on('error', () => settle({ kind: 'aborted' }))
    request.on('close', () => settle({ kind: 'aborted' }))
  })
}

function send(
  response: ServerResponse,
  answer: ApiResponse,
  extraHeaders: Record<string, string> = {},
): void {
  const body = answer.body === null ? null : Buffer.from(answer.body, 'utf8')
  response.writeHead(answer.status, {
    ...actualResponseHeaders(),
    ...answer.headers,
    ...extraHeaders,
    'Content-Length': String(body?.length ?? 0),
  })
  response.end(body ?? undefined)
}

async function health(db: Database): Promise<ApiResponse> {
  try {
    await db.query('select 1')
    return jsonResponse(200, { status: 'ok', database: db.kind })
  } catch {
    return jsonResponse(503, { status: 'unavailable', database: db.kind })
  }
}

async function route(
  options: ApiServerOptions,
  request: IncomingMessage,
  url: URL,
): Promise<ApiResponse | null> {
  const method = request.method ?? 'GET'
  if (isPreflight(method, request.headers)) {
    // The gateway answers preflights itself: no API key needed, empty 200.
    return { status: 200, headers: preflightHeaders(request.headers), body: null }
  }

  const body = await readBody(request)
  if (body.kind === 'aborted') return null
  if (body.kind === 'too-large') {
    return gatewayError(
      413,
      'Request size limit exceeded',
      `The local stand-in accepts request bodies up to ${MAX_BODY_BYTES} bytes (1 MiB).`,
    )
  }

  if (url.pathname === '/health' && (method === 'GET' || method === 'HEAD'))
    return health(options.db)
  if (method === 'OPTIONS') {
    // A plain OPTIONS (not a preflight): what this server answers to.
    return { status: 200, headers: { Allow: 'OPTIONS, POST' }, body: null }
  }
  if (url.pathname === '/rest/v1' || url.pathname.startsWith('/rest/v1/')) {
    return handleRestRequest(options, {
      method,
      path: url.pathname.slice('/rest/v1'.length) || '/',
      query: url.searchParams,
      headers: request.headers,
      body: body.body,
    })
  }
  return invalidPath('The local stand-in serves only /rest/v1/<table> (insert) and /health.')
}

export function createApiServer(options: ApiServerOptions): Server {
  return createServer((request, response) => {
    const started = performance.now()
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    response.on('finish', () => {
      const ms = Math.round(performance.now() - started)
      options.log?.(`${request.method} ${url.pathname} ${response.statusCode} ${ms}ms`)
    })
    route(options, request, url)
      .then((answer) => {
        if (answer === null || response.headersSent) return
        // After a 413 the rest of a huge body may still be arriving: do not keep the connection.
        send(response, answer, answer.status === 413 ? { Connection: 'close' } : {})
      })
      .catch((error: unknown) => {
        if (response.headersSent) return response.destroy()
        send(
          response,
          postgrestError(500, {
            code: 'PGRSTX00',
            message: 'Internal error in the local stand-in',
            details: error instanceof Error ? error.message : String(error),
          }),
        )
      })
  })
}
