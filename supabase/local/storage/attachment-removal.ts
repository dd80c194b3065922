import { removeQueuedAttachments } from '../../functions/_shared/attachment-removal.ts'
import type { Database } from '../database'

/**
 * The local backend's consumer of the removal queue (what the `attachment-purge` Edge Function is
 * on Supabase): run on each `attachment_removal` notification, hourly, and at start. Runs are
 * serialised: requests that arrive during a run share one more run after it.
 */
export function createAttachmentRemover(options: {
  url: string
  serviceRoleKey: string
  log: (line: string) => void
}) {
  let current: Promise<number> | null = null
  let next: Promise<number> | null = null
  const pass = (): Promise<number> =>
    removeQueuedAttachments(options)
      .catch((error: Error) => {
        options.log(`attachment removal failed: ${error.message}`)
        return 0
      })
      .finally(() => {
        current = null
      })
  const run = (): Promise<number> => {
    if (next) return next
    if (!current) return (current = pass())
    next = current.then(() => {
      next = null
      return (current = pass())
    })
    return next
  }
  return {
    /** Runs the queue now and resolves with the number removed. */
    run,
    /** Asks for a run, without waiting for it. */
    request: () => void run(),
    /** Waits for a run in progress, if any. */
    idle: async () => {
      await (next ?? current)
    },
  }
}

const HOUR = 60 * 60 * 1000

/**
 * Storage's jobs: objects queued for removal (purged inquiries, day-old orphans) go through the
 * Storage API with the service role, as the Edge Function does on Supabase (supabase/README.md),
 * on each notification, at start and hourly; expired resumable uploads go hourly.
 */
export async function startStorageJobs(options: {
  db: Database
  url: string
  serviceRoleKey: string
  removeExpiredUploads: () => Promise<number>
  log: (line: string) => void
}) {
  const remover = createAttachmentRemover(options)
  await options.db.listen('attachment_removal', () => remover.request())
  const timer = setInterval(() => {
    remover.request()
    void options.removeExpiredUploads().catch(() => {})
  }, HOUR)
  timer.unref()
  remover.request()
  return {
    removeQueuedAttachments: remover.run,
    stop: async () => {
      clearInterval(timer)
      await remover.idle()
    },
  }
}
