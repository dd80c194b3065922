import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { STORAGE_ERRORS, StorageError } from './errors'

/**
 * Where Storage's bytes live in the backend's folder (`storage/`): `objects/<sha256 of
 * bucket/name>/<version>`, unfinished resumable uploads in `tus/`, standard uploads in
 * `incoming/` until their row is written.
 */

/** The file of one stored version of an object. */
export function objectFile(dir: string, bucketId: string, name: string, version: string): string {
  const key = createHash('sha256').update(`${bucketId}/${name}`).digest('hex')
  return join(dir, 'objects', key, version)
}

export const incomingFile = (dir: string, version: string) => join(dir, 'incoming', version)

/** Streams `body` into `file`, refusing it past `limit` bytes; its size and MD5 (the eTag). */
export async function receive(body: Readable, file: string, limit: number) {
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
  try {
    await pipeline(body, counter, createWriteStream(file, { mode: 0o600 }))
  } catch (error) {
    await rm(file, { force: true })
    throw error instanceof StorageError ? error : STORAGE_ERRORS.invalidRequest('Upload failed')
  }
  return { size, eTag: `"${md5.digest('hex')}"` }
}

/** A stored file's MD5, as its eTag. */
export async function eTagOf(file: string): Promise<string> {
  const md5 = createHash('md5')
  await pipeline(createReadStream(file), md5)
  return `"${md5.digest('hex')}"`
}

/** The metadata Storage keeps with an object (what downloads answer with). */
export function objectMetadata(
  size: number,
  eTag: string,
  mimetype: string,
  cacheControl: string | null,
) {
  return {
    eTag,
    size,
    mimetype,
    cacheControl: /^-?\d+$/.test(cacheControl ?? '')
      ? `max-age=${cacheControl}`
      : (cacheControl ?? 'no-cache'),
    lastModified: new Date().toISOString(),
    contentLength: size,
    httpStatusCode: 200,
  }
}

/** An empty body, for a request that sent none. */
export const emptyBody = () => Readable.from([])
