import { siteEnv } from '../../../lib/env'
import {
  classifyUploadStatus,
  storageStatus,
  type StorageRefusal,
  type UploadOutcome,
} from '../../../shared/files/upload-outcome'
import { ATTACHMENTS_BUCKET } from '../../../shared/submission/attachments'
import { classifyInsertAnswer, SEND_TIMEOUT_MS, type SendOutcome } from '../send-to-supabase'
import { classifyAddAnswer } from '../thread-rpc'
import { CHANNEL_NAME, LOCK_NAME } from './outbox-engine'
import { flushOutbox, type FlushResult, type OutboxFailureReason } from './outbox-flush'
import { outboxLock } from './outbox-lock'
import {
  noteDeliveries,
  openOutboxStore,
  OUTBOX_SYNC_TAG,
  type OutboxItem,
  type QueuedAttachment,
} from './outbox-store'

/**
 * Background Sync in the service worker (issue 27; Chromium only): the page registers
 * `OUTBOX_SYNC_TAG` when a message waits, and the browser fires 'sync' once the connection is
 * back, even with no tab of the site open. The worker then sends the same outbox with the page's
 * own round (`flushOutbox`): under the same Web Lock (a page flushing at that moment sends, the
 * worker skips), the same ids (a replay answers 409: delivered), the same re-validation and
 * outcomes. What it delivered is noted for the next page to say "Message Sent Securely"; what was
 * refused stays in the outbox for the page's review. Messages still waiting make the sync fail,
 * so that the browser tries again later. No React, no Supabase client: a plain `fetch` of the
 * same request supabase-js makes (connect-src already allows the Supabase origin). An inquiry's
 * sealed files go first, as on the page: its row never names an object not stored.
 *
 * Built on its own into `outbox-sync-<hash>.js` (src/build/sync-worker-plugin.ts) and loaded by the
 * generated service worker with `importScripts`.
 */

type SyncEvent = Event & { tag: string; waitUntil(promise: Promise<unknown>): void }
const worker = self as unknown as {
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void
  clients?: { matchAll(options: { type: 'window' }): Promise<Array<{ visibilityState: string }>> }
}

/**
 * A page of the site on screen sends the outbox itself (on `online`, with its toasts): the worker
 * leaves it that round. A hidden or frozen tab (Android keeps them) does not count.
 */
async function pageOnScreen(): Promise<boolean> {
  const windows = (await worker.clients?.matchAll({ type: 'window' })) ?? []
  return windows.some((client) => client.visibilityState === 'visible')
}

/** A PostgREST answer as supabase-js reads it: the error from the body, or the data. */
async function post(path: string, body: unknown, signal?: AbortSignal) {
  const response = await fetch(`${siteEnv.supabaseUrl}/rest/v1/${path}`, {
    method: 'POST',
    headers: {
      apikey: siteEnv.supabaseAnonKey,
      Authorization: `Bearer ${siteEnv.supabaseAnonKey}`,
      'Content-Type': 'application/json',
      Prefer: 'return=minimal',
    },
    body: JSON.stringify(body),
    signal: signal ?? AbortSignal.timeout(SEND_TIMEOUT_MS),
  })
  const text = await response.text()
  let parsed: unknown = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    parsed = { message: text }
  }
  const status = response.status
  return response.ok
    ? { error: null, status, data: parsed }
    : { error: (parsed ?? {}) as { message?: string; code?: string }, status, data: null }
}

/**
 * How long one file's upload may take here. Chromium ends a sync event after a few minutes; a
 * file not stored by then is tried again at the browser's next sync, or by the next page.
 */
export const WORKER_UPLOAD_TIMEOUT_MS = 150_000

/**
 * A queued inquiry's sealed files, stored one after the other with the request supabase-js makes
 * for a Blob (multipart, `x-upsert: false`: insert only). The worker carries neither supabase-js
 * nor tus-js-client, so every file goes as one standard upload, which Storage takes up to the
 * bucket's limit; the page's resumable uploads are for a visitor watching a cut connection, and
 * nobody watches here. A file an earlier try stored answers 409: stored (upload-outcome.ts).
 */
export async function uploadFromWorker(
  attachments: readonly QueuedAttachment[],
  signal?: AbortSignal,
): Promise<UploadOutcome> {
  for (const { object, ciphertext } of attachments) {
    const body = new FormData()
    body.append('cacheControl', '3600')
    body.append('', ciphertext)
    let outcome: UploadOutcome
    try {
      const response = await fetch(
        `${siteEnv.supabaseUrl}/storage/v1/object/${ATTACHMENTS_BUCKET}/${object}`,
        {
          method: 'POST',
          headers: {
            apikey: siteEnv.supabaseAnonKey,
            Authorization: `Bearer ${siteEnv.supabaseAnonKey}`,
            'x-upsert': 'false',
          },
          body,
          signal: signal ?? AbortSignal.timeout(WORKER_UPLOAD_TIMEOUT_MS),
        },
      )
      const answer = response.ok ? null : await response.text()
      let refusal: StorageRefusal = {}
      try {
        refusal = answer ? (JSON.parse(answer) as StorageRefusal) : {}
      } catch {
        // Not JSON: the HTTP status decides.
      }
      const code = storageStatus({ statusCode: refusal.statusCode, status: response.status })
      outcome = classifyUploadStatus(code, `HTTP ${code}: ${(answer ?? '').slice(0, 300)}`)
    } catch (error) {
      outcome = classifyUploadStatus(0, String(error))
    }
    if (outcome.kind !== 'delivered') return outcome
  }
  return { kind: 'delivered' }
}

/** Sends one queued item as the page's `sendQueued` does, with `fetch`. */
export async function sendFromWorker(
  item: OutboxItem,
  signal?: AbortSignal,
): Promise<SendOutcome<OutboxFailureReason>> {
  try {
    if (item.kind === 'inquiry') {
      if (item.attachments?.length) {
        const uploaded = await uploadFromWorker(item.attachments)
        if (uploaded.kind !== 'delivered') return uploaded
      }
      return classifyInsertAnswer(await post('contact_submissions', item.row, signal))
    }
    const { mailbox_token, id, sealed } = item.message
    return classifyAddAnswer(
      await post('rpc/add_to_thread', { mailbox_token, message_id: id, sealed }, signal),
    )
  } catch (error) {
    return { kind: 'no-answer', reason: 'noAnswer', detail: String(error) }
  }
}

/**
 * One round of the outbox from the worker; rejects while messages still wait (the browser retries
 * later). Null when a page on screen sends instead.
 */
export async function syncOutbox(): Promise<FlushResult | null> {
  if (await pageOnScreen()) return null
  const store = await openOutboxStore(indexedDB)
  let result: FlushResult
  try {
    result = await flushOutbox({
      store,
      send: sendFromWorker,
      now: Date.now,
      withLock: outboxLock(LOCK_NAME),
      ignoreSchedule: true,
    })
  } finally {
    store.close()
  }
  if (result.delivered.length > 0) await noteDeliveries(result.delivered)
  // Open tabs (if any) update their counts at once.
  const channel = new BroadcastChannel(CHANNEL_NAME)
  channel.postMessage(result.counts)
  channel.close()
  result.refused.forEach(({ detail }) =>
    console.error('A queued contact message was refused:', detail),
  )
  // A page holding the lock is sending: it registers a sync again if anything is left.
  if (!result.skipped && result.counts.pending > 0)
    throw new Error(`${result.counts.pending} queued message(s) still waiting`)
  return result
}

worker.addEventListener('sync', (event) => {
  if (event.tag === OUTBOX_SYNC_TAG) event.waitUntil(syncOutbox())
})
