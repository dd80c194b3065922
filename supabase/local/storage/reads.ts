import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import type { Context } from 'hono'
import type { Database } from '../database'
import { STORAGE_ERRORS, storageErrorFrom } from './errors'
import { objectFile } from './files'
import { findBucket } from './objects'
import { scoped, type Requester } from './requester'

/** Downloads and listings, each as the requester sees `storage.objects` (its policies decide). */

type Found = { version: string | null; metadata: Record<string, unknown> | null }

/** GET of an object: the row read as the requester (none: not found), then its file. */
export async function download(
  db: Database,
  dir: string,
  who: Requester,
  object: { bucketId: string; name: string },
  isPublic: boolean,
): Promise<Response> {
  const { bucketId, name } = object
  if (isPublic && !(await findBucket(db, bucketId)).public) throw STORAGE_ERRORS.noSuchBucket()
  const [row] = await scoped(db, who, !isPublic, (tx) =>
    tx.query<Found>(
      'select version, metadata from storage.objects where bucket_id = $1 and name = $2',
      [bucketId, name],
    ),
  ).catch((error: unknown) => Promise.reject(storageErrorFrom(error)))
  if (!row?.version) throw STORAGE_ERRORS.noSuchKey()
  const file = objectFile(dir, bucketId, name, row.version)
  const size = await stat(file).then(
    (found) => found.size,
    () => null,
  )
  if (size === null) throw STORAGE_ERRORS.noSuchKey()
  const metadata = row.metadata ?? {}
  const text = (value: unknown, otherwise: string) =>
    typeof value === 'string' ? value : otherwise
  return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream, {
    status: 200,
    headers: {
      'Content-Type': text(metadata.mimetype, 'application/octet-stream'),
      'Content-Length': String(size),
      'Cache-Control': text(metadata.cacheControl, 'no-cache'),
      ETag: text(metadata.eTag, ''),
      'Last-Modified': new Date(
        text(metadata.lastModified, new Date().toISOString()),
      ).toUTCString(),
    },
  })
}

type ListBody = { prefix?: string; limit?: number; offset?: number; search?: string }

/** POST /object/list/<bucket>: one level under `prefix`, as the requester sees it. */
export async function list(c: Context, db: Database, who: Requester): Promise<Response> {
  const bucketId = decodeURIComponent(c.req.param('bucket') ?? '')
  const body = (await c.req.json().catch(() => ({}))) as ListBody
  const prefix = (body.prefix ?? '').replace(/^\/+|\/+$/g, '')
  const base = prefix === '' ? '' : `${prefix}/`
  const rows = await scoped(db, who, true, (tx) =>
    tx.query<{ row: Record<string, unknown> & { name: string } }>(
      `select to_jsonb(o) - 'path_tokens' as row from storage.objects as o
        where o.bucket_id = $1 and left(o.name, length($2)) = $2
        order by o.name limit 10000`,
      [bucketId, base],
    ),
  ).catch((error: unknown) => Promise.reject(storageErrorFrom(error)))
  const entries = new Map<string, Record<string, unknown>>()
  for (const { row } of rows) {
    const rest = row.name.slice(base.length)
    const slash = rest.indexOf('/')
    const entryName = slash < 0 ? rest : rest.slice(0, slash)
    if (body.search && !entryName.toLowerCase().startsWith(body.search.toLowerCase())) continue
    if (entries.has(entryName)) continue
    entries.set(
      entryName,
      slash < 0
        ? { ...row, name: entryName }
        : {
            name: entryName,
            id: null,
            updated_at: null,
            created_at: null,
            last_accessed_at: null,
            metadata: null,
          },
    )
  }
  const offset = Math.max(0, body.offset ?? 0)
  const limit = Math.max(0, body.limit ?? 100)
  return Response.json([...entries.values()].slice(offset, offset + limit))
}
