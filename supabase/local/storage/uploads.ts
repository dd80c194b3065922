import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import busboy from 'busboy'
import type { Context } from 'hono'
import type { Database } from '../database'
import { checkMimeType, STORAGE_ERRORS, StorageError } from './errors'
import { emptyBody, incomingFile, objectMetadata, receive } from './files'
import { canUpload, completeUpload, findBucket, sizeLimit } from './objects'
import type { Requester } from './requester'

/**
 * A standard upload (POST, PUT with upsert) of `/object/<bucket>/<name>`, in Storage's order
 * (fileUploadFromRequest and Uploader.upload in src/storage/uploader.ts): the MIME type against
 * the bucket; a raw body whose Content-Length is past the bucket's limit refused (413) before
 * anything else; then the policy, which sees the request's Content-Length (for a form, its
 * framing included); then the bytes, streamed to disk and cut at the bucket's limit (413); then
 * the row. Nothing is held in memory: a form is parsed as it arrives (busboy, the parser
 * Storage's @fastify/multipart runs).
 */

type UploadFile = {
  body: Readable
  mimetype: string
  cacheControl: string | null
  /** Whether the bucket's limit cut the file short. */
  truncated: () => boolean
}

/** The first file of a multipart form, with the fields sent before it. */
function formFile(c: Context, limit: number): Promise<UploadFile> {
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': c.req.header('content-type') },
      limits: { fileSize: limit, files: 1 },
    })
  } catch {
    throw STORAGE_ERRORS.invalidRequest('The form has no boundary, so its file cannot be read.')
  }
  const fields: Record<string, string> = {}
  return new Promise<UploadFile>((resolve, reject) => {
    parser.on('field', (name, value) => (fields[name] = value))
    parser.on('file', (_name, stream, info) => {
      let truncated = false
      stream.on('limit', () => (truncated = true))
      resolve({
        body: stream,
        mimetype: fields.contentType || info.mimeType,
        cacheControl: fields.cacheControl ?? null,
        truncated: () => truncated,
      })
    })
    parser.on('error', () =>
      reject(STORAGE_ERRORS.invalidRequest('The form could not be read: it ended too early.')),
    )
    parser.on('close', () => reject(STORAGE_ERRORS.invalidRequest('The form holds no file.')))
    const body = c.req.raw.body ? Readable.fromWeb(c.req.raw.body as never) : emptyBody()
    body.on('error', () => parser.destroy())
    body.pipe(parser)
  })
}

function rawFile(c: Context, limit: number): UploadFile {
  const length = c.req.header('content-length')
  if (length !== undefined && Number(length) > limit) throw STORAGE_ERRORS.entityTooLarge()
  return {
    body: c.req.raw.body ? Readable.fromWeb(c.req.raw.body as never) : emptyBody(),
    mimetype: c.req.header('content-type') || 'text/plain;charset=UTF-8',
    cacheControl: c.req.header('cache-control') ?? null,
    truncated: () => false,
  }
}

export async function upload(
  c: Context,
  db: Database,
  dir: string,
  who: Requester,
  object: { bucketId: string; name: string },
): Promise<Response> {
  const bucket = await findBucket(db, object.bucketId)
  const limit = sizeLimit(bucket)
  const isUpsert = c.req.method === 'PUT' || c.req.header('x-upsert') === 'true'
  const file = (c.req.header('content-type') ?? '').startsWith('multipart/form-data')
    ? await formFile(c, limit)
    : rawFile(c, limit)
  checkMimeType(file.mimetype, bucket.allowed_mime_types)
  const declared = c.req.header('content-length')
  await canUpload(
    db,
    who,
    { ...object, isUpsert },
    {
      mimetype: file.mimetype,
      contentLength: declared === undefined ? undefined : Number(declared),
    },
  )
  const version = randomUUID()
  const incoming = incomingFile(dir, version)
  const { size, eTag } = await receive(file.body, incoming, limit)
  if (file.truncated()) {
    await rm(incoming, { force: true })
    throw STORAGE_ERRORS.entityTooLarge()
  }
  const id = await completeUpload(db, dir, who, {
    ...object,
    version,
    file: incoming,
    metadata: objectMetadata(size, eTag, file.mimetype, file.cacheControl),
    isUpsert,
  })
  return Response.json({ Key: `${object.bucketId}/${object.name}`, Id: id })
}

/** A refusal before the body was read: the connection closes, so nothing more is taken in. */
export const closing = (error: StorageError) => error.response({ Connection: 'close' })
