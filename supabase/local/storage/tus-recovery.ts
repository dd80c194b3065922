import { readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { StorageError } from './errors'
import type { Requester } from './requester'

/**
 * What a stop leaves of resumable uploads, dealt with at the next start (before any request) and
 * hourly: an upload whose every byte arrived but whose row was never written is finished with the
 * requester kept beside it, or removed so its client starts again (never a complete offset for an
 * object that does not exist); an unfinished one past its hour is removed.
 */

export type UploadInfo = {
  size?: number
  creation_date?: string
  metadata?: Record<string, string | null>
}

type Finish = (
  id: string,
  who: Requester,
  upload: { size: number; metadata?: UploadInfo['metadata'] },
  isUpsert: boolean,
) => Promise<void>

export function tusRecovery(options: {
  uploadsDir: string
  requesterFile: (id: string) => string
  finish: Finish
  /** How long an unfinished upload is kept, and where the uploads are served (for the log). */
  expiryMs: number
  path: string
  log: (line: string) => void
}) {
  const { uploadsDir, requesterFile, finish, expiryMs, path, log } = options
  /** The uploads in the folder, with what their records say and how many bytes arrived. */
  async function uploads() {
    const names = await readdir(uploadsDir).catch(() => [] as string[])
    const found = []
    for (const name of names.filter((entry) => entry.endsWith('.json'))) {
      const id = name.slice(0, -'.json'.length)
      const info = JSON.parse(
        await readFile(join(uploadsDir, name), 'utf8').catch(() => '{}'),
      ) as UploadInfo
      const received = await stat(join(uploadsDir, id)).then(
        (file) => file.size,
        () => null,
      )
      found.push({ id, info, received })
    }
    return found
  }

  async function remove(id: string) {
    await rm(join(uploadsDir, id), { force: true })
    await rm(join(uploadsDir, `${id}.json`), { force: true })
    await rm(requesterFile(id), { force: true })
  }

  /** Unfinished uploads past their hour: removed (bytes, record and requester). */
  async function removeExpired(): Promise<number> {
    let removed = 0
    for (const { id, info, received } of await uploads()) {
      const created = Date.parse(info.creation_date ?? '')
      const complete = received !== null && received === info.size
      if (!complete && (Number.isNaN(created) || created + expiryMs < Date.now())) {
        await remove(id)
        removed += 1
      }
    }
    return removed
  }

  /** Uploads whose every byte arrived but whose row was never written: finished, or removed. */
  async function finishComplete(): Promise<void> {
    for (const { id, info, received } of await uploads()) {
      if (received === null || info.size === undefined || received !== info.size) continue
      try {
        const kept = JSON.parse(await readFile(requesterFile(id), 'utf8')) as Requester & {
          isUpsert: boolean
        }
        await finish(id, kept, { size: info.size, metadata: info.metadata }, kept.isUpsert)
        log(`storage: an upload complete before the last stop was stored (${path}/${id})`)
      } catch (error) {
        await remove(id)
        const reason = error instanceof StorageError ? error.message : (error as Error).name
        log(
          `storage: an upload complete before the last stop could not be stored (${reason}); removed, its client sends it again`,
        )
      }
    }
  }

  return { finishComplete, removeExpired }
}
