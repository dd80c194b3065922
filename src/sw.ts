/**
 * The service worker, compiled by vite-plugin-pwa (injectManifest): every page and asset
 * precached, so the site works offline after one visit; updates wait for the visitor's "Reload"
 * (an automatic switch could reload a page holding a half-typed brief); and the outbox's Background
 * Sync, which sends what a closed tab left waiting, with the page's own round and sender.
 */
import { clientsClaim } from 'workbox-core'
import {
  cleanupOutdatedCaches,
  matchPrecache,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CHANNEL_NAME, LOCK_NAME } from './features/outbox/outbox-definitions'
import { flushOutbox } from './features/outbox/outbox-flush'
import type { FlushResult } from './features/outbox/outbox-types'
import { outboxLock } from './features/outbox/outbox-lock'
import { noteDeliveries, openOutboxStore, OUTBOX_SYNC_TAG } from './features/outbox/outbox-store'
import { sendQueuedWith } from './features/outbox/send-queued'
import * as backend from './lib/backend'

type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void }
declare const self: {
  __WB_MANIFEST: Array<PrecacheEntry | string>
  skipWaiting(): Promise<void>
  clients: { matchAll(options: { type: 'window' }): Promise<Array<{ visibilityState: string }>> }
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  addEventListener(type: 'sync', listener: (event: ExtendableEvent & { tag: string }) => void): void
}

cleanupOutdatedCaches()
precacheAndRoute(self.__WB_MANIFEST)
// `/services` is the precached `services.html`; any other address gets the 404 page with status
// 404, as the server answers; `/page/` addresses and files the precache leaves to the network are
// not pages.
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      const page = await matchPrecache('/404.html')
      if (!page) return fetch(request)
      return new Response(page.body, {
        status: 404,
        statusText: 'Not Found',
        headers: page.headers,
      })
    },
    { denylist: [/^\/.+\/$/, /\.(xml|txt|webmanifest)$/] },
  ),
)
// The first install takes the open page at once, so the visit that installed it works offline.
clientsClaim()
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})

/**
 * One round of the outbox with no page to show its toasts: under the pages' lock, with their
 * sender. What it delivered is noted for the next page to announce; messages still waiting make
 * the sync fail, so the browser tries again later. A page on screen sends on its own (`online`),
 * so the worker leaves it that round; a hidden or frozen tab does not count.
 */
async function syncOutbox(): Promise<FlushResult | null> {
  const windows = await self.clients.matchAll({ type: 'window' })
  if (windows.some((client) => client.visibilityState === 'visible')) return null
  const store = await openOutboxStore(indexedDB)
  const result = await flushOutbox({
    store,
    send: sendQueuedWith(backend),
    now: Date.now,
    withLock: outboxLock(LOCK_NAME),
    ignoreSchedule: true,
  }).finally(() => store.close())
  if (result.delivered.length > 0) await noteDeliveries(result.delivered)
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

self.addEventListener('sync', (event) => {
  if (event.tag === OUTBOX_SYNC_TAG) event.waitUntil(syncOutbox())
})
