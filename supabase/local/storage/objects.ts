import { mkdir, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Database } from '../database'
import { STORAGE_ERRORS, storageErrorFrom } from './errors'
import { objectFile } from './files'
import { ownerOf, scoped, type Requester } from './requester'

/**
 * Storage's work on `storage.objects`, in its order (supabase/storage at 4fa61fb,
 * src/storage/uploader.ts, object.ts): an upload checked by inserting its row as the requester in
 * a transaction that is rolled back, the row written as Storage's superuser once the bytes are
 * stored, removals as the requester with `storage.allow_delete_query`.
 */

/** Storage's global upload limit where a bucket sets none: config.toml's `[storage] file_size_limit`. */
export const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024

export type Bucket = {
  id: string
  public: boolean
  file_size_limit: number | null
  allowed_mime_types: string[] | null
}

/** Storage's object keys (isValidKey in src/storage/limits.ts), without empty, `.` or `..` parts. */
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]+$/

export function mustBeValidKey(name: string): void {
  if (
    !VALID_OBJECT_KEY.test(name) ||
    name.split('/').some((part) => part === '' || part === '.' || part === '..')
  )
    throw STORAGE_ERRORS.invalidKey(name)
}

export async function findBucket(db: Database, id: string): Promise<Bucket> {
  const [bucket] = await db.query<Bucket>(
    `select id, public, file_size_limit::float8 as file_size_limit, allowed_mime_types
       from storage.buckets where id = $1`,
    [id],
  )
  if (!bucket) throw STORAGE_ERRORS.noSuchBucket()
  return bucket
}

/** The most a bucket takes in one object. */
export const sizeLimit = (bucket: Bucket) =>
  Math.min(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT)

const UPSERT = `on conflict (bucket_id, name) do update set version = excluded.version,
    metadata = excluded.metadata, owner = excluded.owner, owner_id = excluded.owner_id,
    user_metadata = excluded.user_metadata, updated_at = now(), last_accessed_at = now()`

/** Thrown inside a transaction to roll it back on purpose (Storage's testPermission). */
class Rollback extends Error {}

/** Storage's canUpload: the row inserted (or upserted) as the requester, then rolled back. */
export async function canUpload(
  db: Database,
  who: Requester,
  object: { bucketId: string; name: string; isUpsert: boolean },
  metadata: { mimetype?: string; contentLength?: number },
): Promise<void> {
  const { owner, ownerId } = ownerOf(who)
  try {
    await scoped(db, who, true, async (tx) => {
      await tx.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
         values ($1, $2, $3, $4, '1', $5) ${object.isUpsert ? UPSERT : ''}`,
        [object.bucketId, object.name, owner, ownerId, JSON.stringify(metadata)],
      )
      throw new Rollback()
    })
  } catch (error) {
    if (error instanceof Rollback) return
    throw storageErrorFrom(error)
  }
}

export type StoredObject = {
  bucketId: string
  name: string
  version: string
  /** Where the bytes are until they are moved into place. */
  file: string
  metadata: Record<string, unknown>
  /** Only an upsert replaces an existing object; otherwise an existing name is a 409. */
  isUpsert: boolean
}

/**
 * Storage's completeUpload: the row written as its superuser (with the request's headers), the
 * file moved into place in the same turn; the version it replaced, if any, removed afterwards.
 * Unlike Storage, only an upsert replaces an object: a second upload of one new name finishing
 * after the first is refused (409), never written over it.
 */
export async function completeUpload(
  db: Database,
  dir: string,
  who: Requester,
  object: StoredObject,
): Promise<string> {
  const { bucketId, name, version } = object
  const { owner, ownerId } = ownerOf(who)
  let replaced: string | null = null
  let id: string
  try {
    id = await scoped(db, who, false, async (tx) => {
      const [current] = await tx.query<{ version: string | null }>(
        'select version from storage.objects where bucket_id = $1 and name = $2 for update',
        [bucketId, name],
      )
      if (current && !object.isUpsert) throw STORAGE_ERRORS.duplicate()
      replaced = current?.version ?? null
      const [row] = await tx.query<{ id: string }>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
         values ($1, $2, $3, $4, $5, $6) ${object.isUpsert ? UPSERT : ''} returning id`,
        [bucketId, name, owner, ownerId, version, JSON.stringify(object.metadata)],
      )
      const target = objectFile(dir, bucketId, name, version)
      await mkdir(dirname(target), { recursive: true })
      await rename(object.file, target)
      return row?.id ?? ''
    })
  } catch (error) {
    await rm(object.file, { force: true })
    throw storageErrorFrom(error)
  }
  if (replaced && replaced !== version)
    await rm(objectFile(dir, bucketId, name, replaced), { force: true })
  return id
}

/** Deletes the rows as the requester (only those its policies let it delete), then the files. */
export async function removeObjects(
  db: Database,
  dir: string,
  who: Requester,
  bucketId: string,
  names: string[],
) {
  if (names.length === 0) return []
  const rows = await scoped(
    db,
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

/**
 * Storage's deleteObject: an object that does not exist is a 404; one the requester may not
 * delete is a 403 "Access denied" (its row is found as superuser, then deleted as the requester).
 */
export async function removeObject(
  db: Database,
  dir: string,
  who: Requester,
  bucketId: string,
  name: string,
): Promise<void> {
  const [found] = await db.query('select from storage.objects where bucket_id = $1 and name = $2', [
    bucketId,
    name,
  ])
  if (!found) throw STORAGE_ERRORS.noSuchKey()
  const removed = await removeObjects(db, dir, who, bucketId, [name])
  if (removed.length === 0) throw STORAGE_ERRORS.accessDenied()
}
