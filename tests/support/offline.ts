import { expect, type BrowserContext, type Page } from '@playwright/test'
import { OUTBOX_DB_NAME } from '../../src/features/outbox/outbox-definitions'
import { OUTBOX_STORE } from '../../src/features/outbox/outbox-store'
import { openContactPage } from './contact-form'

/**
 * Waits until the service worker controls the page and has precached the site: from then on the
 * site must open without a network.
 */
export async function waitForOfflineReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), {
          once: true,
        }),
      )
    }
    return registration.active?.state
  })
  await expect
    .poll(() =>
      page.evaluate(async () => (await caches.keys()).some((key) => key.includes('precache'))),
    )
    .toBe(true)
}

/**
 * Cuts the network for the pages *and* the service worker. `setOffline` alone does not reach the
 * service worker's own fetches (microsoft/playwright#2311), so every request that would leave the
 * browser is also aborted; with PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS=1 (set by
 * `npm run test:e2e`) context routes see the worker's requests too. What still loads comes from the
 * precache.
 */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.route('**/*', (route) => route.abort('internetdisconnected'))
  await context.setOffline(true)
}

export async function goOnline(context: BrowserContext): Promise<void> {
  await context.unroute('**/*')
  await context.setOffline(false)
}

/** The outbox records as IndexedDB holds them, read from the page. */
export async function outboxRecords(page: Page): Promise<Record<string, unknown>[]> {
  const names = { database: OUTBOX_DB_NAME, store: OUTBOX_STORE }
  return page.evaluate(async ({ database, store }) => {
    // Opening a database that does not exist would create an empty one and break the app's own
    // upgrade, so look first.
    if (!(await indexedDB.databases()).some((found) => found.name === database)) return []
    return new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const open = indexedDB.open(database)
      open.onerror = () => reject(open.error)
      open.onsuccess = () => {
        const db = open.result
        if (!db.objectStoreNames.contains(store)) {
          db.close()
          resolve([])
          return
        }
        const request = db.transaction(store).objectStore(store).getAll()
        request.onsuccess = () => {
          db.close()
          resolve(request.result as Record<string, unknown>[])
        }
        request.onerror = () => reject(request.error)
      }
    })
  }, names)
}

/**
 * Everything this origin keeps in IndexedDB (every database, every store, every value), as JSON
 * text: what a person holding the device could read. Bytes (the inbox keeps its key as an age
 * file) are written as the text they decode to, so that a test can search them.
 */
export async function indexedDbContents(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const dump: Record<string, Record<string, unknown[]>> = {}
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name)
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      dump[name] = {}
      for (const store of db.objectStoreNames) {
        dump[name][store] = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll()
          request.onsuccess = () => resolve(request.result as unknown[])
          request.onerror = () => reject(request.error)
        })
      }
      db.close()
    }
    const bytesAsText = (_key: string, value: unknown) =>
      value instanceof Uint8Array || value instanceof ArrayBuffer
        ? new TextDecoder('latin1').decode(value)
        : value
    return JSON.stringify(dump, bytesAsText)
  })
}

/** Everything this origin keeps in Cache Storage (every cache, every response's body), as text. */
export async function cacheStorageContents(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts: string[] = []
    for (const name of await caches.keys()) {
      const cache = await caches.open(name)
      for (const request of await cache.keys()) {
        const response = await cache.match(request)
        parts.push(`${name} ${request.url}\n${(await response?.text()) ?? ''}`)
      }
    }
    return parts.join('\n')
  })
}

/** localStorage and sessionStorage of this origin, as text. */
export async function webStorageContents(page: Page): Promise<string> {
  return page.evaluate(() =>
    JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }),
  )
}

/**
 * Opens /contact, lets the service worker cache the site (so later reloads and navigation work
 * offline), then cuts the network.
 */
export async function openContactPageOffline(page: Page, context: BrowserContext): Promise<void> {
  await openContactPage(page)
  await waitForOfflineReady(page)
  await goOffline(context)
}

/** Everything the page keeps on its origin or shows in its tab (storage, caches, title, address). */
export async function keptByPage(page: Page) {
  return {
    webStorage: await webStorageContents(page),
    indexedDb: await indexedDbContents(page),
    caches: await cacheStorageContents(page),
    title: await page.title(),
    url: page.url(),
  }
}
