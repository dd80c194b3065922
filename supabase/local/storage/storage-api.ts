import { createHash, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { FileStore } from '@tus/file-store'
import { Server as TusServer } from '@tus/server'
import { Metadata, type Upload } from '@tus/utils'
import { Hono, type Context } from 'hono'
import type { Database, Queryable } from '../database'
import type { Gateway, Identity } from '../gateway'
import { Refusal, JSON_UTF8 } from '../rest/errors'
import { checkMimeType, STORAGE_ERRORS, StorageError, storageErrorFrom } from './errors'

/**
 * Supabase Storage's object routes as supabase-js and tus-js-client speak them, under
 * `/storage/v1` of the stand-in's gateway: upload (POST, PUT with upsert), TUS resumable upload
 * on @tus/server with @tus/file-store (the library Storage itself runs), download, remove, list.
 *
 * Who may do what is the database's to decide, as in Storage (supabase/storage at 4fa61fb,
 * src/storage/uploader.ts, object.ts, database/pg.ts): every request runs its storage.objects
 * statement as the requester's role with its JWT claims and headers (the way the REST emulation
 * does), so row level security decides. An upload is first checked by inserting its row as the
 * requester in a transaction that is rolled back (on every TUS POST and PATCH too), then its
 * bytes are stored, then the row is written as Storage's own superuser, with the same headers.
 * Removal sets `storage.allow_delete_query`, as Storage's connection does. Refusals are Storage's
 * (storage-errors.ts).
 *
 * Files live in the backend's folder (`storage/`): `objects/<sha256 of bucket/name>/<version>`,
 * unfinished TUS uploads in `tus/`, standard uploads in `incoming/` until stored.
 */

/** Storage's global upload limit where a bucket sets none: config.toml's `[storage] file_size_limit`. */
export const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024
/** TUS_URL_EXPIRY_MS's default in Storage: an unfinished resumable upload expires after an hour. */
export const TUS_EXPIRY_MS = 60 * 60 * 1000
export const TUS_PATH = '/storage/v1/upload/resumable'
/** The roles a request may run as (those granted to authenticator on Supabase). */
const API_ROLES = new Set(['anon', 'authenticated', 'service_role'])

type Bucket = {
  id: string
  public: boolean
  file_size_limit: number | null
  allowed_mime_types: string[] | null
}

/** Who a request runs as, and the headers its statements see in request.headers. */
type Requester = {
  identity: Identity
  headers: Record<string, string>
  method: string
  path: string
  /** Storage's name for the route (storage.operation), as in its src/http/routes/operations.ts. */
  operation: string
}

/** The file of one stored version of an object. */
export function objectFile(dir: string, bucketId: string, name: string, version: string): string {
  const key = createHash('sha256').update(`${bucketId}/${name}`).digest('hex')
  return join(dir, 'objects', key, version)
}

/** Thrown inside a transaction to roll it back on purpose (Storage's testPermission). */
class Rollback extends Error {}

export type StorageApiOptions = {
  db: Database
  gateway: Gateway
  /** Where the files live. */
  dir: string
  log?: (line: string) => void
}

export function createStorageApi({ db, gateway, dir }: StorageApiOptions) {
  const requesters = new WeakMap<Request, Requester>()

  /**
   * The gateway's key check (Kong's answer), then the JWT (Storage's InvalidJWT). Every header
   * but cookies goes to request.headers, lowercased, as Storage passes Fastify's request.headers:
   * policies read cf-connecting-ip and the visitor's x-mailbox-token there.
   */
  async function requester(c: Context, operation: string): Promise<Requester> {
    await gateway.authorization(c)
    let identity: Identity
    try {
      identity = await gateway.identify(c)
    } catch (error) {
      if (!(error instanceof Refusal)) throw error
      const body = (await error.response.json().catch(() => ({}))) as { message?: string }
      throw STORAGE_ERRORS.invalidJwt(body.message)
    }
    const headers = Object.fromEntries(
      [...c.req.raw.headers].filter(([header]) => header !== 'cookie'),
    )
    return {
      identity,
      headers,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      operation,
    }
  }

  /** A transaction as Storage scopes it: the role (null: Storage's superuser), claims, headers. */
  function scoped<T>(
    who: Requester,
    asRole: boolean,
    fn: (tx: Queryable) => Promise<T>,
    options: { allowDelete?: boolean } = {},
  ): Promise<T> {
    const { identity } = who
    if (asRole && !API_ROLES.has(identity.role))
      return Promise.reject(STORAGE_ERRORS.accessDenied(`role "${identity.role}" may not be used`))
    return db.transaction(async (tx) => {
      await tx.query(
        `select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.role', $2, true),
                set_config('request.jwt.claim.sub', $3, true), set_config('request.headers', $4, true),
                set_config('request.method', $5, true), set_config('request.path', $6, true),
                set_config('storage.allow_delete_query', $7, true),
                set_config('storage.operation', $8, true),
                set_config('search_path', 'storage, public, extensions', true)`,
        [
          JSON.stringify(identity.claims),
          identity.role,
          typeof identity.claims.sub === 'string' ? identity.claims.sub : '',
          JSON.stringify(who.headers),
          who.method,
          who.path,
          options.allowDelete ? 'true' : 'false',
          who.operation,
        ],
      )
      if (asRole) await tx.query(`select set_config('role', $1, true)`, [identity.role])
      return fn(tx)
    })
  }

  async function findBucket(id: string): Promise<Bucket> {
    const [bucket] = await db.query<Bucket>(
      `select id, public, file_size_limit::float8 as file_size_limit, allowed_mime_types
         from storage.buckets where id = $1`,
      [id],
    )
    if (!bucket) throw STORAGE_ERRORS.noSuchBucket()
    return bucket
  }

  const ownerOf = (who: Requester) => {
    const sub = who.identity.claims.sub
    return typeof sub === 'string' && sub !== '' ? sub : null
  }
  const ownerUuid = (who: Requester) => {
    const owner = ownerOf(who)
    return owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null
  }

  const UPSERT = `on conflict (bucket_id, name) do update set version = excluded.version,
      metadata = excluded.metadata, owner = excluded.owner, owner_id = excluded.owner_id,
      user_metadata = excluded.user_metadata, updated_at = now(), last_accessed_at = now()`

  /** Storage's canUpload: the row inserted (or upserted) as the requester, then rolled back. */
  async function canUpload(
    who: Requester,
    bucketId: string,
    name: string,
    isUpsert: boolean,
    metadata: { mimetype?: string; contentLength?: number },
  ): Promise<void> {
    try {
      await scoped(who, true, async (tx) => {
        await tx.query(
          `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
           values ($1, $2, $3, $4, '1', $5) ${isUpsert ? UPSERT : ''}`,
          [bucketId, name, ownerUuid(who), ownerOf(who), JSON.stringify(metadata)],
        )
        throw new Rollback()
      })
    } catch (error) {
      if (error instanceof Rollback) return
      throw storageErrorFrom(error)
    }
  }

  /**
   * Storage's completeUpload: the row written as its superuser (with the request's headers, so
   * the database's triggers see the network), the file moved into place in the same turn; the
   * version it replaced, if any, removed afterwards.
   */
  async function completeUpload(
    who: Requester,
    bucketId: string,
    name: string,
    version: string,
    file: string,
    metadata: Record<string, unknown>,
  ): Promise<string> {
    let replaced: string | null = null
    let id: string
    try {
      id = await scoped(who, false, async (tx) => {
        const [current] = await tx.query<{ version: string | null }>(
          'select version from storage.objects where bucket_id = $1 and name = $2 for update',
          [bucketId, name],
        )
        replaced = current?.version ?? null
        const [row] = await tx.query<{ id: string }>(
          `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
           values ($1, $2, $3, $4, $5, $6) ${UPSERT} returning id`,
          [bucketId, name, ownerUuid(who), ownerOf(who), version, JSON.stringify(metadata)],
        )
        const target = objectFile(dir, bucketId, name, version)
        await mkdir(dirname(target), { recursive: true })
        await rename(file, target)
        return row?.id ?? ''
      })
    } catch (error) {
      await rm(file, { force: true })
      throw storageErrorFrom(error)
    }
    if (replaced && replaced !== version)
      await rm(objectFile(dir, bucketId, name, replaced), { force: true })
    return id
  }

  /** The object name after `/object/<bucket>/` (or after a longer prefix), decoded. */
  function objectName(c: Context, prefix: string): { bucketId: string; name: string } {
    const rest = new URL(c.req.url).pathname.slice(prefix.length)
    const slash = rest.indexOf('/')
    const bucketId = decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash))
    const name = slash < 0 ? '' : decodeURIComponent(rest.slice(slash + 1))
    if (name === '' || name.split('/').some((part) => part === '' || part === '.' || part === '..'))
      throw STORAGE_ERRORS.invalidKey(name)
    return { bucketId, name }
  }

  /** Streams `body` into `file`, refusing it past `limit` bytes; its size and MD5 (the eTag). */
  async function receive(body: ReadableStream<Uint8Array> | null, file: string, limit: number) {
    await mkdir(dirname(file), { recursive: true })
    const md5 = createHash('md5')
    let size = 0
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length
        if (size > limit) return callback(STORAGE_ERRORS.entityTooLarge())
        md5.update(chunk)
        callback(null, chunk)
      },
    })
    const source = body ? Readable.fromWeb(body as never) : Readable.from([])
    try {
      await pipeline(source, counter, createWriteStream(file, { mode: 0o600 }))
    } catch (error) {
      await rm(file, { force: true })
      throw error instanceof StorageError ? error : STORAGE_ERRORS.invalidRequest('Upload failed')
    }
    return { size, eTag: `"${md5.digest('hex')}"` }
  }

  const objectMetadata = (
    size: number,
    eTag: string,
    mimetype: string,
    cacheControl: string | null,
  ) => ({
    eTag,
    size,
    mimetype,
    cacheControl: /^-?\d+$/.test(cacheControl ?? '')
      ? `max-age=${cacheControl}`
      : (cacheControl ?? 'no-cache'),
    lastModified: new Date().toISOString(),
    contentLength: size,
    httpStatusCode: 200,
  })

  /** POST (create; upsert with x-upsert: true) and PUT (update) of /object/<bucket>/<name>. */
  async function upload(c: Context): Promise<Response> {
    const who = await requester(
      c,
      c.req.method === 'PUT' ? 'storage.object.upload_update' : 'storage.object.upload',
    )
    const { bucketId, name } = objectName(c, '/storage/v1/object/')
    const bucket = await findBucket(bucketId)
    const isUpsert = c.req.method === 'PUT' || c.req.header('x-upsert') === 'true'
    const contentType = c.req.header('content-type') ?? ''
    let mimetype: string
    let cacheControl: string | null
    let declared: number | undefined
    let body: ReadableStream<Uint8Array> | null
    if (contentType.startsWith('multipart/form-data')) {
      // supabase-js sends a Blob as a form: the file under an empty field name, cacheControl.
      const form = await c.req.raw.formData()
      const file = [...form.values()].find((value): value is File => typeof value !== 'string')
      if (!file) throw STORAGE_ERRORS.invalidRequest('No file was found in the form')
      mimetype = file.type || 'text/plain'
      cacheControl = (form.get('cacheControl') as string | null) ?? null
      declared = file.size
      body = file.stream()
    } else {
      mimetype = contentType || 'text/plain;charset=UTF-8'
      cacheControl = c.req.header('cache-control') ?? null
      const length = c.req.header('content-length')
      declared = length === undefined ? undefined : Number(length)
      body = c.req.raw.body
    }
    checkMimeType(mimetype, bucket.allowed_mime_types)
    const limit = Math.min(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT)
    if (declared !== undefined && declared > limit) throw STORAGE_ERRORS.entityTooLarge()
    await canUpload(who, bucketId, name, isUpsert, { mimetype, contentLength: declared })
    const version = randomUUID()
    const incoming = join(dir, 'incoming', version)
    const { size, eTag } = await receive(body, incoming, limit)
    const id = await completeUpload(
      who,
      bucketId,
      name,
      version,
      incoming,
      objectMetadata(size, eTag, mimetype, cacheControl),
    )
    return Response.json({ Key: `${bucketId}/${name}`, Id: id })
  }

  /** GET of an object: the row read as the requester (none: not found), then its file. */
  async function download(c: Context, prefix: string, isPublic = false): Promise<Response> {
    const who = await requester(
      c,
      isPublic ? 'storage.object.get_public' : 'storage.object.get_authenticated',
    )
    const { bucketId, name } = objectName(c, prefix)
    if (isPublic && !(await findBucket(bucketId)).public) throw STORAGE_ERRORS.noSuchBucket()
    const [row] = await scoped(who, !isPublic, (tx) =>
      tx.query<{ version: string | null; metadata: Record<string, unknown> | null }>(
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

  /** Deletes the rows as the requester (only those its policies let it delete), then the files. */
  async function removeObjects(who: Requester, bucketId: string, names: string[]) {
    if (names.length === 0) return []
    const rows = await scoped(
      who,
      true,
      (tx) =>
        tx.query<{ row: Record<string, unknown> & { name: string; version: string | null } }>(
          `with removed as (
             delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning *)
           select to_jsonb(removed) - 'path_tokens' as row from removed`,
          [bucketId, names],
        ),
      { allowDelete: true },
    ).catch((error: unknown) => Promise.reject(storageErrorFrom(error)))
    for (const { row } of rows)
      if (row.version) await rm(objectFile(dir, bucketId, row.name, row.version), { force: true })
    return rows.map(({ row }) => row)
  }

  /** POST /object/list/<bucket>: one level under `prefix`, as the requester sees it. */
  async function list(c: Context): Promise<Response> {
    const who = await requester(c, 'storage.object.list')
    const bucketId = decodeURIComponent(c.req.param('bucket') ?? '')
    const body = (await c.req.json().catch(() => ({}))) as {
      prefix?: string
      limit?: number
      offset?: number
      search?: string
    }
    const prefix = (body.prefix ?? '').replace(/^\/+|\/+$/g, '')
    const base = prefix === '' ? '' : `${prefix}/`
    const rows = await scoped(who, true, (tx) =>
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

  // ---------------------------------------------------------------- TUS

  /** Storage's upload id: base64url of `<bucket>/<object name>/<version>`. */
  const encodeUploadId = (bucketId: string, name: string, version: string) =>
    Buffer.from(`${bucketId}/${name}/${version}`).toString('base64url')
  function decodeUploadId(id: string) {
    const text = Buffer.from(id, 'base64url').toString('utf8')
    const first = text.indexOf('/')
    const last = text.lastIndexOf('/')
    if (first < 0 || last <= first) throw STORAGE_ERRORS.invalidRequest('Invalid upload id')
    return {
      bucketId: text.slice(0, first),
      name: text.slice(first + 1, last),
      version: text.slice(last + 1),
    }
  }

  const datastore = new FileStore({
    directory: join(dir, 'tus'),
    expirationPeriodInMilliseconds: TUS_EXPIRY_MS,
  })
  const whoSent = (req: Request): Requester => {
    const who = requesters.get(req)
    if (!who) throw STORAGE_ERRORS.internal()
    return who
  }
  const tus = new TusServer({
    path: TUS_PATH,
    datastore,
    allowedHeaders: ['Authorization', 'X-Upsert', 'Upload-Expires', 'ApiKey', 'x-signature'],
    namingFunction: (_req, metadata) => {
      const bucketId = metadata?.bucketName ?? ''
      const name = metadata?.objectName ?? ''
      if (!bucketId || !name) throw STORAGE_ERRORS.invalidRequest('metadata is required')
      if (name.split('/').some((part) => part === '' || part === '.' || part === '..'))
        throw STORAGE_ERRORS.invalidKey(name)
      return encodeUploadId(bucketId, name, randomUUID())
    },
    maxSize: async (_req, id) => {
      if (!id) return GLOBAL_FILE_SIZE_LIMIT
      const bucket = await findBucket(decodeUploadId(id).bucketId)
      return Math.min(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT)
    },
    // Storage's onIncomingRequest: every POST, PATCH and DELETE checked as an upload would be.
    onIncomingRequest: async (req, id) => {
      if (req.method === 'HEAD' || req.method === 'OPTIONS' || req.method === 'GET') return
      const who = whoSent(req as unknown as Request)
      const { bucketId, name } = decodeUploadId(id)
      let contentType: string | undefined
      let contentLength: number | undefined
      if (req.method === 'POST') {
        const header = req.headers.get('upload-metadata')
        contentType = header ? (Metadata.parse(header).contentType ?? undefined) : undefined
        const length = req.headers.get('upload-length')
        contentLength = length ? Number(length) : undefined
      } else {
        const found = await datastore.getUpload(id)
        contentType = found.metadata?.contentType ?? undefined
        contentLength = found.size
      }
      const isUpsert = req.headers.get('x-upsert') === 'true'
      await canUpload(who, bucketId, name, isUpsert, { mimetype: contentType, contentLength })
    },
    onUploadCreate: async (_req, upload: Upload) => {
      const bucket = await findBucket(decodeUploadId(upload.id).bucketId)
      const metadata = { ...(upload.metadata ?? {}) }
      metadata.cacheControl = /^-?\d+$/.test(metadata.cacheControl ?? '')
        ? `max-age=${metadata.cacheControl}`
        : 'no-cache'
      if (metadata.contentType) checkMimeType(metadata.contentType, bucket.allowed_mime_types)
      return { metadata }
    },
    onUploadFinish: async (req, upload: Upload) => {
      const who = whoSent(req as unknown as Request)
      const { bucketId, name, version } = decodeUploadId(upload.id)
      const file = join(dir, 'tus', upload.id)
      const size = upload.size ?? upload.offset
      const md5 = createHash('md5')
      await pipeline(createReadStream(file), md5)
      const mimetype = upload.metadata?.contentType ?? 'application/octet-stream'
      const cache = upload.metadata?.cacheControl ?? null
      const eTag = `"${md5.digest('hex')}"`
      await completeUpload(who, bucketId, name, version, file, {
        ...objectMetadata(size, eTag, mimetype, null),
        cacheControl: cache ?? 'no-cache',
      })
      await rm(`${file}.json`, { force: true })
      return {}
    },
    onResponseError: (_req, error) =>
      error instanceof StorageError
        ? { status_code: error.statusCode, body: error.message }
        : undefined,
  })

  // ---------------------------------------------------------------- routes

  const app = new Hono()
  const answer =
    (handler: (c: Context) => Promise<Response>) =>
    async (c: Context): Promise<Response> => {
      try {
        return await handler(c)
      } catch (error) {
        if (error instanceof Refusal) return error.response
        return storageErrorFrom(error).response()
      }
    }

  app.post(
    '/object/list/:bucket',
    answer((c) => list(c)),
  )
  app.get(
    '/object/authenticated/*',
    answer((c) => download(c, '/storage/v1/object/authenticated/')),
  )
  app.get(
    '/object/public/*',
    answer((c) => download(c, '/storage/v1/object/public/', true)),
  )
  app.get(
    '/object/*',
    answer((c) => download(c, '/storage/v1/object/')),
  )
  app.post('/object/*', answer(upload))
  app.put('/object/*', answer(upload))
  app.delete(
    '/object/:bucket',
    answer(async (c) => {
      const who = await requester(c, 'storage.object.delete_many')
      const body = (await c.req.json().catch(() => null)) as { prefixes?: unknown } | null
      const prefixes = body?.prefixes
      if (!Array.isArray(prefixes) || !prefixes.every((name) => typeof name === 'string'))
        throw STORAGE_ERRORS.invalidRequest("body must have required property 'prefixes'")
      const bucketId = decodeURIComponent(c.req.param('bucket') ?? '')
      return Response.json(await removeObjects(who, bucketId, prefixes as string[]))
    }),
  )
  app.delete(
    '/object/*',
    answer(async (c) => {
      const who = await requester(c, 'storage.object.delete')
      const { bucketId, name } = objectName(c, '/storage/v1/object/')
      const removed = await removeObjects(who, bucketId, [name])
      if (removed.length === 0) throw STORAGE_ERRORS.noSuchKey()
      return Response.json({ message: 'Successfully deleted' })
    }),
  )
  const TUS_OPERATIONS: Record<string, string> = {
    POST: 'storage.tus.upload.create',
    PATCH: 'storage.tus.upload.part',
    HEAD: 'storage.tus.upload.get',
    DELETE: 'storage.tus.upload.delete',
  }
  const resumable = answer(async (c) => {
    const who = await requester(c, TUS_OPERATIONS[c.req.method] ?? 'storage.tus.options')
    requesters.set(c.req.raw, who)
    return tus.handleWeb(c.req.raw)
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
    /** Removes unfinished resumable uploads past their hour (Storage's TUS expiry). */
    cleanUpExpiredUploads: () => tus.cleanUpExpiredUploads(),
  }
}
