import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Hono, type Context } from 'hono'
import type { Database } from '../database'
import type { Gateway } from '../gateway'
import { JSON_UTF8, Refusal } from '../rest/errors'
import { STORAGE_ERRORS, storageErrorFrom } from './errors'
import { mustBeValidKey, removeObject, removeObjects } from './objects'
import { download, list } from './reads'
import { requesterOf, type Requester } from './requester'
import { createTusUploads } from './tus'
import { upload } from './uploads'

/**
 * Supabase Storage's object routes as supabase-js and tus-js-client speak them, under
 * `/storage/v1` of the stand-in's gateway: upload (uploads.ts; tus.ts for resumable uploads),
 * download and list (reads.ts), remove (objects.ts). Who may do what is the database's to decide,
 * as in Storage (supabase/storage at 4fa61fb): every statement runs as the requester's role with
 * its claims and headers (requester.ts), so row level security decides. Refusals are Storage's
 * (errors.ts).
 */

export type StorageApiOptions = {
  db: Database
  gateway: Gateway
  /** Where the files live. */
  dir: string
  log?: (line: string) => void
}

/** The object name after `/object/<bucket>/` (or after a longer prefix), decoded and checked. */
function objectName(c: Context, prefix: string): { bucketId: string; name: string } {
  const rest = new URL(c.req.url).pathname.slice(prefix.length)
  const slash = rest.indexOf('/')
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text)
    } catch {
      throw STORAGE_ERRORS.invalidKey(text)
    }
  }
  const bucketId = decode(slash < 0 ? rest : rest.slice(0, slash))
  const name = slash < 0 ? '' : decode(rest.slice(slash + 1))
  mustBeValidKey(name)
  return { bucketId, name }
}

const TUS_OPERATIONS: Record<string, string> = {
  POST: 'storage.tus.upload.create',
  PATCH: 'storage.tus.upload.part',
  HEAD: 'storage.tus.upload.get',
  DELETE: 'storage.tus.upload.delete',
}

export function createStorageApi({ db, gateway, dir, log = () => {} }: StorageApiOptions) {
  const requesters = new WeakMap<Request, Requester>()
  const tus = createTusUploads({ db, dir, log, requesterOf: (request) => requesters.get(request) })
  const who = (c: Context, operation: string) => requesterOf(c, gateway, operation)

  /** Storage's answer for anything refused; anything unforeseen is a 500 and one log line. */
  const answer =
    (handler: (c: Context) => Promise<Response>, headers: Record<string, string> = {}) =>
    async (c: Context): Promise<Response> => {
      try {
        return await handler(c)
      } catch (error) {
        if (error instanceof Refusal) return error.response
        try {
          return storageErrorFrom(error).response(headers)
        } catch {
          log(`storage: ${c.req.method} failed unexpectedly (${(error as Error).name})`)
          return STORAGE_ERRORS.internal().response(headers)
        }
      }
    }

  const app = new Hono()
  app.post(
    '/object/list/:bucket',
    answer(async (c) => list(c, db, await who(c, 'storage.object.list'))),
  )
  for (const [prefix, isPublic, operation] of [
    ['/object/authenticated/', false, 'storage.object.get_authenticated'],
    ['/object/public/', true, 'storage.object.get_public'],
    ['/object/', false, 'storage.object.get_authenticated'],
  ] as const)
    app.get(
      `${prefix}*`,
      answer(async (c) => {
        const requester = await who(c, operation)
        return download(db, dir, requester, objectName(c, `/storage/v1${prefix}`), isPublic)
      }),
    )
  // A refused upload may leave its body unread: the connection closes rather than take it in.
  const uploadRoute = answer(
    async (c) => {
      const operation =
        c.req.method === 'PUT' ? 'storage.object.upload_update' : 'storage.object.upload'
      const requester = await who(c, operation)
      return upload(c, db, dir, requester, objectName(c, '/storage/v1/object/'))
    },
    { Connection: 'close' },
  )
  app.post('/object/*', uploadRoute)
  app.put('/object/*', uploadRoute)
  app.delete(
    '/object/:bucket',
    answer(async (c) => {
      const requester = await who(c, 'storage.object.delete_many')
      const body = (await c.req.json().catch(() => null)) as { prefixes?: unknown } | null
      const prefixes = body?.prefixes
      if (!Array.isArray(prefixes) || !prefixes.every((name) => typeof name === 'string'))
        throw STORAGE_ERRORS.invalidRequest("body must have required property 'prefixes'")
      const bucketId = decodeURIComponent(c.req.param('bucket') ?? '')
      return Response.json(await removeObjects(db, dir, requester, bucketId, prefixes))
    }),
  )
  app.delete(
    '/object/*',
    answer(async (c) => {
      const requester = await who(c, 'storage.object.delete')
      const { bucketId, name } = objectName(c, '/storage/v1/object/')
      await removeObject(db, dir, requester, bucketId, name)
      return Response.json({ message: 'Successfully deleted' })
    }),
  )
  const resumable = answer(async (c) => {
    const requester = await who(c, TUS_OPERATIONS[c.req.method] ?? 'storage.tus.options')
    requesters.set(c.req.raw, requester)
    return tus.handle(c.req.raw)
  })
  app.all('/upload/resumable', resumable)
  app.all('/upload/resumable/*', resumable)
  app.all('*', (c) =>
    Response.json(
      {
        statusCode: '404',
        code: 'NotFound',
        error: 'Not Found',
        message: `Route ${c.req.method}:${new URL(c.req.url).pathname} not found`,
      },
      { status: 404, headers: { 'Content-Type': JSON_UTF8 } },
    ),
  )

  return {
    app,
    /**
     * Before the first request: standard uploads cut by a stop never reached a row (their partial
     * files go); resumable ones complete but unrecorded are stored; expired ones go.
     */
    async start() {
      await rm(join(dir, 'incoming'), { recursive: true, force: true })
      await tus.recover()
    },
    /** Removes unfinished resumable uploads past their hour (Storage's TUS expiry). */
    removeExpiredUploads: () => tus.removeExpired(),
  }
}
