import { randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { FileStore } from '@tus/file-store'
import { Server as TusServer } from '@tus/server'
import { Metadata, type Upload } from '@tus/utils'
import type { Database } from '../database'
import { checkMimeType, STORAGE_ERRORS, StorageError } from './errors'
import { eTagOf, objectMetadata } from './files'
import {
  canUpload,
  completeUpload,
  findBucket,
  GLOBAL_FILE_SIZE_LIMIT,
  mustBeValidKey,
  sizeLimit,
} from './objects'
import type { Requester } from './requester'
import { tusRecovery, type UploadInfo } from './tus-recovery'

/**
 * Resumable uploads (TUS 1.0.0) on @tus/server with @tus/file-store, the library Storage itself
 * runs: every POST, PATCH and DELETE checked as an upload would be (Storage's onIncomingRequest),
 * the row written once the last byte is on disk. The upload's requester is kept beside its bytes
 * (without its credentials), so an upload whose bytes are complete but whose row was never
 * written (the backend stopped in between) is finished when the backend starts, before it serves
 * anyone; one that cannot be is removed, so its client starts again instead of taking a complete
 * offset for a stored file. Unfinished uploads expire after an hour, removed at start and hourly.
 */

export const TUS_PATH = '/storage/v1/upload/resumable'
/** TUS_URL_EXPIRY_MS's default in Storage: an unfinished resumable upload expires after an hour. */
export const TUS_EXPIRY_MS = 60 * 60 * 1000

/** Headers kept with an upload for its completion: all but the credentials. */
const UNKEPT_HEADERS = new Set(['authorization', 'apikey', 'cookie', 'x-mailbox-token'])

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

export function createTusUploads(options: {
  db: Database
  dir: string
  /** The requester of a request the routes let through (storage-api.ts). */
  requesterOf: (request: Request) => Requester | undefined
  log: (line: string) => void
}) {
  const { db, dir, log } = options
  const uploadsDir = join(dir, 'tus')
  const requestersDir = join(dir, 'tus-requesters')
  const requesterFile = (id: string) => join(requestersDir, `${id}.json`)
  const datastore = new FileStore({
    directory: uploadsDir,
    expirationPeriodInMilliseconds: TUS_EXPIRY_MS,
  })
  const whoSent = (req: Request): Requester => {
    const who = options.requesterOf(req)
    if (!who) throw STORAGE_ERRORS.internal()
    return who
  }

  /** The row written and the file moved into place; the upload's own records go. */
  async function finish(
    id: string,
    who: Requester,
    upload: { size: number; metadata?: UploadInfo['metadata'] },
    isUpsert: boolean,
  ) {
    const { bucketId, name, version } = decodeUploadId(id)
    const file = join(uploadsDir, id)
    const mimetype = upload.metadata?.contentType ?? 'application/octet-stream'
    try {
      await completeUpload(db, dir, who, {
        bucketId,
        name,
        version,
        file,
        isUpsert,
        metadata: {
          ...objectMetadata(upload.size, await eTagOf(file), mimetype, null),
          cacheControl: upload.metadata?.cacheControl ?? 'no-cache',
        },
      })
    } finally {
      await rm(`${file}.json`, { force: true })
      await rm(requesterFile(id), { force: true })
    }
  }

  const tus = new TusServer({
    path: TUS_PATH,
    datastore,
    allowedHeaders: ['Authorization', 'X-Upsert', 'Upload-Expires', 'ApiKey', 'x-signature'],
    namingFunction: (_req, metadata) => {
      const bucketId = metadata?.bucketName ?? ''
      const name = metadata?.objectName ?? ''
      if (!bucketId || !name) throw STORAGE_ERRORS.invalidRequest('metadata is required')
      mustBeValidKey(name)
      return encodeUploadId(bucketId, name, randomUUID())
    },
    maxSize: async (_req, id) =>
      id ? sizeLimit(await findBucket(db, decodeUploadId(id).bucketId)) : GLOBAL_FILE_SIZE_LIMIT,
    onIncomingRequest: async (req, id) => {
      if (req.method === 'HEAD' || req.method === 'OPTIONS' || req.method === 'GET') return
      const { bucketId, name } = decodeUploadId(id)
      let metadata: { mimetype?: string; contentLength?: number }
      if (req.method === 'POST') {
        const header = req.headers.get('upload-metadata')
        const length = req.headers.get('upload-length')
        metadata = {
          mimetype: header ? (Metadata.parse(header).contentType ?? undefined) : undefined,
          contentLength: length ? Number(length) : undefined,
        }
      } else {
        const found = await datastore.getUpload(id)
        metadata = { mimetype: found.metadata?.contentType ?? undefined, contentLength: found.size }
      }
      const isUpsert = req.headers.get('x-upsert') === 'true'
      await canUpload(
        db,
        whoSent(req as unknown as Request),
        { bucketId, name, isUpsert },
        metadata,
      )
    },
    onUploadCreate: async (req, upload: Upload) => {
      const bucket = await findBucket(db, decodeUploadId(upload.id).bucketId)
      const metadata = { ...(upload.metadata ?? {}) }
      metadata.cacheControl = /^-?\d+$/.test(metadata.cacheControl ?? '')
        ? `max-age=${metadata.cacheControl}`
        : 'no-cache'
      if (metadata.contentType) checkMimeType(metadata.contentType, bucket.allowed_mime_types)
      const who = whoSent(req as unknown as Request)
      const kept = Object.fromEntries(
        Object.entries(who.headers).filter(([header]) => !UNKEPT_HEADERS.has(header)),
      )
      await mkdir(requestersDir, { recursive: true, mode: 0o700 })
      await writeFile(
        requesterFile(upload.id),
        JSON.stringify({ ...who, headers: kept, isUpsert: req.headers.get('x-upsert') === 'true' }),
        { mode: 0o600 },
      )
      return { metadata }
    },
    onUploadFinish: async (req, upload: Upload) => {
      const isUpsert = req.headers.get('x-upsert') === 'true'
      await finish(
        upload.id,
        whoSent(req as unknown as Request),
        { size: upload.size ?? upload.offset, metadata: upload.metadata },
        isUpsert,
      )
      return {}
    },
    onResponseError: (_req, error) =>
      error instanceof StorageError
        ? { status_code: error.statusCode, body: error.message }
        : undefined,
  })

  const recovery = tusRecovery({
    uploadsDir,
    requesterFile,
    finish,
    expiryMs: TUS_EXPIRY_MS,
    path: TUS_PATH,
    log,
  })

  return {
    handle: (request: Request) => tus.handleWeb(request),
    /** At start, before any request: complete uploads stored, expired ones removed. */
    recover: async () => {
      await recovery.finishComplete()
      await recovery.removeExpired()
    },
    removeExpired: recovery.removeExpired,
  }
}
