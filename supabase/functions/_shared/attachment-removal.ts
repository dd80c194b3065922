/**
 * Removes the objects the database queued for removal (private.attachment_removals: the objects
 * of purged inquiries, and day-old uploads whose inquiry never came), through the Storage API with
 * the service role: Supabase forbids deleting storage.objects rows directly, and only Storage
 * removes the files too. Web APIs only: the `attachment-purge` Edge Function runs it in Deno on
 * Supabase, and the local backend runs it in Node (supabase/local/storage/attachment-removal.ts).
 *
 * Reads the queue with `POST /rest/v1/rpc/pending_attachment_removals` (service_role only), then
 * `DELETE /storage/v1/object/<bucket>` with `{ prefixes }` per bucket, up to 1 000 names a call
 * (Storage's limit per request). A removed object leaves the queue by the database's own trigger;
 * one that fails stays queued, and the next run (the hourly purge calls again) retries it. Logs
 * counts and status codes only: object names say when someone wrote.
 */

export const ATTACHMENT_PURGE_SECRET_HEADER = 'x-attachment-purge-secret'

export type AttachmentRemovalOptions = {
  /** The project's API URL (SUPABASE_URL; the local gateway's URL). */
  url: string
  serviceRoleKey: string
  fetch?: typeof fetch
  log?: (line: string) => void
}

type Pending = { bucket_id: string; name: string }

/** One pass over the queue: the number of objects Storage removed. */
export async function removeQueuedAttachments(options: AttachmentRemovalOptions): Promise<number> {
  const fetcher = options.fetch ?? fetch
  const log = options.log ?? (() => {})
  const headers = {
    apikey: options.serviceRoleKey,
    authorization: `Bearer ${options.serviceRoleKey}`,
    'content-type': 'application/json',
  }
  const queue = await fetcher(`${options.url}/rest/v1/rpc/pending_attachment_removals`, {
    method: 'POST',
    headers,
    body: '{}',
  })
  if (!queue.ok) {
    await queue.body?.cancel()
    throw new Error(`reading the removal queue failed with HTTP ${queue.status}`)
  }
  const pending = (await queue.json()) as Pending[]
  const byBucket = new Map<string, string[]>()
  for (const { bucket_id: bucket, name } of pending)
    byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), name])
  let removed = 0
  for (const [bucket, names] of byBucket) {
    const response = await fetcher(
      `${options.url}/storage/v1/object/${encodeURIComponent(bucket)}`,
      { method: 'DELETE', headers, body: JSON.stringify({ prefixes: names }) },
    )
    if (!response.ok) {
      await response.body?.cancel()
      log(
        `attachment removal: Storage answered HTTP ${response.status} for ${names.length} object(s)`,
      )
      continue
    }
    removed += ((await response.json()) as unknown[]).length
  }
  if (pending.length > 0)
    log(`attachment removal: ${removed} of ${pending.length} queued object(s) removed`)
  return removed
}
