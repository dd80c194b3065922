import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { createAuthApi } from './auth/auth-api'
import type { AuthSettings } from './auth/auth-input'
import type { Database } from './database'
import { createGateway } from './gateway'
import { json } from './rest/errors'
import { forwardRest } from './rest/upstream'
import { invalidPath, restRoute } from './rest/routes'

/**
 * The local stand-in's HTTP API as Supabase's gateway serves it: the CLI's Kong CORS, the body
 * limit, the request log (method, path, status, time: never a body, a query string or a header),
 * `/health`, and the routes: `/rest/v1` (rest-routes.ts) behind the gateway's keys and JWT
 * (gateway.ts), with PostgREST's errors (postgrest-errors.ts), and `/auth/v1` (auth/auth-api.ts).
 */

/** The hosted API has no lower limit (CHECK constraints answer long rows with 400). */
export const MAX_BODY_BYTES = 1024 * 1024
// The tus headers too: a browser's tus-js-client reads Location and Upload-Offset (storage.ts).
const EXPOSED_HEADERS =
  'Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit, ' +
  'Upload-Offset, Upload-Length, Upload-Metadata, Upload-Defer-Length, Upload-Concat, Upload-Expires, ' +
  'Tus-Resumable, Tus-Version, Tus-Max-Size, Tus-Extension'
/** What GoTrue's CORS handler exposes besides (api/api.go: X-Total-Count, Link, the API version). */
const AUTH_EXPOSED_HEADERS = 'X-Total-Count, Link, X-Supabase-Api-Version'

export type HttpApiOptions = {
  db: Database
  jwtSecret: string
  log?: (line: string) => void
  /** Auth's settings where they differ from config.toml's (tests lower the rate limits). */
  authSettings?: Partial<AuthSettings>
  /**
   * A real PostgREST's URL: `/rest/v1` is forwarded to it, behind this same gateway, instead of
   * being emulated (the contract suites' oracle).
   */
  restUpstream?: string
  /** Storage's routes (storage.ts), served under `/storage/v1` without the body limit. */
  storage?: Hono
}

export function createHttpApi({
  db,
  jwtSecret,
  log,
  authSettings,
  restUpstream,
  storage,
}: HttpApiOptions): Hono {
  const gateway = createGateway(jwtSecret)
  const app = new Hono()

  app.use(async (c, next) => {
    const started = performance.now()
    await next()
    log?.(
      `${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${Math.round(performance.now() - started)}ms`,
    )
  })
  // As the CLI's Kong `cors` plugin with no options: any origin, all methods, requested headers echoed.
  app.use(
    cors({
      origin: '*',
      allowMethods: 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT'.split(','),
      exposeHeaders: [EXPOSED_HEADERS],
    }),
  )
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () =>
      json(
        413,
        {
          message: 'Request size limit exceeded',
          hint: `The local stand-in accepts bodies up to ${MAX_BODY_BYTES} bytes.`,
        },
        { Connection: 'close' },
      ),
  })
  // Storage streams uploads to disk and applies the bucket's own size limit.
  app.use((c, next) =>
    storage && new URL(c.req.url).pathname.startsWith('/storage/v1/') ? next() : limitBody(c, next),
  )

  // Kong (nginx) refuses a path with a malformed %-escape before any route or key check.
  app.use(async (c, next) => {
    if (/%(?![0-9a-f]{2})/i.test(new URL(c.req.url).pathname)) {
      return json(400, { message: 'Bad request' })
    }
    await next()
  })

  app.get('/health', async () => {
    try {
      await db.checkStorage()
      return json(200, { status: 'ok', database: db.kind })
    } catch (error) {
      return json(503, {
        status: 'unavailable',
        database: db.kind,
        reason: error instanceof Error ? error.message : String(error),
      })
    }
  })

  app.all('/rest/v1/*', restUpstream ? forwardRest(restUpstream, gateway) : restRoute(db, gateway))
  // GoTrue's own CORS exposes its API version header (with X-Total-Count and Link): auth-js reads
  // an error's code from the body only when it can read that header, and knows a deleted session
  // (`session_not_found`, which signs the browser out) only by that code.
  app.use('/auth/v1/*', async (c, next) => {
    await next()
    c.res.headers.set(
      'Access-Control-Expose-Headers',
      `${EXPOSED_HEADERS}, ${AUTH_EXPOSED_HEADERS}`,
    )
  })
  app.route('/auth/v1', createAuthApi({ db, jwtSecret, settings: authSettings }))
  if (storage) app.route('/storage/v1', storage)

  app.all('*', () => invalidPath())
  return app
}
