import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page, Response } from '@playwright/test'
import { siteRoutes } from '../../src/config/routes'
import { attachmentsFieldCopy } from '../../src/features/contact/attachments-copy'
import {
  FILE_ENGINE_CHUNK,
  HASH_WORKER_SCRIPT,
  openContactPage,
  SEALER_CHUNK,
  startOnForm,
} from '../support/contact-form'
import { goOffline, goOnline, waitForOfflineReady } from '../support/offline'
import { fileWeight } from '../support/page-weight'
import { E2E_BUILD_DIR } from '../support/ports'
import { expect, test } from '../support/strict-page'

/**
 * The crypto chunk (age, issue 8): its own file, loaded only once the visitor starts on the form,
 * never preloaded by a page, and precached by the service worker so sealing works offline. The
 * same for the engine that seals attached files (issue 26), loaded only once a file is attached,
 * with the worker that hashes beside it.
 */

const DIST = fileURLToPath(new URL(`../../${E2E_BUILD_DIR}`, import.meta.url))
/**
 * Measured 48.9 KB gzip with age-encryption 0.3.1 (the estimate was about 51 KB); 57.7 KB
 * once it also makes the visitor's receipt (issue 24: BIP39's English word list, HKDF), which must
 * happen here, in the code loaded when the form is touched, not in any page's; 58.4 KB with the
 * attachments' sealing (issue 26: 59,786 bytes once it writes age's payload itself, 875 more).
 */
const SEALER_GZIP_BUDGET = 60 * 1024
/**
 * The engine that seals attached files (issue 26): libsodium's WebAssembly build (its binary is
 * inlined as base64, most of the weight) and hash-wasm's SHA-256, 157.9 KB gzip measured. Fetched
 * only once a file is attached, so no message without files pays for it.
 */
const FILE_ENGINE_GZIP_BUDGET = 160 * 1024
/** The worker that hashes beside the engine (hash-wasm's SHA-256 alone): 7.0 KB gzip measured. */
const HASH_WORKER_GZIP_BUDGET = 8 * 1024

async function chunkFile(pattern: RegExp, what: string): Promise<string> {
  const files = (await readdir(join(DIST, 'assets'))).filter((file) =>
    pattern.test(`/assets/${file}`),
  )
  expect(files, `exactly one ${what} in the build`).toHaveLength(1)
  return `assets/${files[0]}`
}
const sealerFile = () => chunkFile(SEALER_CHUNK, 'crypto chunk')

/** A small file to attach, as a visitor picks one (its bytes do not matter here). */
const smallFile = { name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('attached') }
const attachFile = (page: Page) =>
  page.getByLabel(attachmentsFieldCopy.label).setInputFiles(smallFile)

test('the crypto chunk is one file within its budget, precached, and named by no page', async () => {
  const sealer = await sealerFile()
  expect((await fileWeight(DIST, sealer)).gzip).toBeLessThanOrEqual(SEALER_GZIP_BUDGET)
  expect(await readFile(join(DIST, 'sw.js'), 'utf8')).toContain(sealer)
  const pages = (await readdir(DIST)).filter((file) => file.endsWith('.html'))
  expect(pages.length).toBeGreaterThan(siteRoutes.length)
  for (const html of pages) {
    expect(await readFile(join(DIST, html), 'utf8'), html).not.toContain('seal-submission')
  }
})

test('the file engine and its hashing worker are one file each within budget, precached, named by no page, without the bench hook', async () => {
  const engine = await chunkFile(FILE_ENGINE_CHUNK, 'file engine')
  const worker = await chunkFile(HASH_WORKER_SCRIPT, 'hashing worker')
  expect((await fileWeight(DIST, engine)).gzip).toBeLessThanOrEqual(FILE_ENGINE_GZIP_BUDGET)
  expect((await fileWeight(DIST, worker)).gzip).toBeLessThanOrEqual(HASH_WORKER_GZIP_BUDGET)
  const serviceWorker = await readFile(join(DIST, 'sw.js'), 'utf8')
  expect(serviceWorker).toContain(engine)
  expect(serviceWorker).toContain(worker)
  for (const html of (await readdir(DIST)).filter((file) => file.endsWith('.html'))) {
    const text = await readFile(join(DIST, html), 'utf8')
    expect(text, html).not.toContain('wasm-seal-engine')
    expect(text, html).not.toContain('sha256-worker')
  }
  // Only `npm run bench`'s own build may slow the worker (sha256-in-worker-browser.ts).
  expect(await readFile(join(DIST, engine), 'utf8')).not.toContain('benchCpuSlowdown')
})

test('the file engine loads only once a file is attached, not when the form is touched', async ({
  page,
}) => {
  const requested: string[] = []
  page.on('request', (request) => requested.push(new URL(request.url()).pathname))
  await openContactPage(page)
  expect((await startOnForm(page)).ok()).toBe(true)
  await page.waitForLoadState('networkidle')
  expect(requested.filter((path) => FILE_ENGINE_CHUNK.test(path))).toEqual([])
  expect(requested.filter((path) => HASH_WORKER_SCRIPT.test(path))).toEqual([])
  expect(page.workers()).toEqual([])

  const engineLoaded = page.waitForResponse((response) =>
    FILE_ENGINE_CHUNK.test(new URL(response.url()).pathname),
  )
  const workerLoaded = page.waitForResponse((response) =>
    HASH_WORKER_SCRIPT.test(new URL(response.url()).pathname),
  )
  await attachFile(page)
  expect((await engineLoaded).ok()).toBe(true)
  expect((await workerLoaded).ok()).toBe(true)
  await expect.poll(() => page.workers().length).toBe(1)
  // Its policy (the site's headers on its script) lets it compile its hash: it hashes, not the page.
  const emptyModule = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]
  const compiled = await page
    .workers()[0]!
    .evaluate((bytes) => WebAssembly.compile(new Uint8Array(bytes)).then(() => true), emptyModule)
  expect(compiled).toBe(true)
})

test('no page loads the crypto chunk until the visitor starts on the form', async ({ page }) => {
  const requested: string[] = []
  page.on('request', (request) => requested.push(new URL(request.url()).pathname))
  for (const route of siteRoutes) await page.goto(route.path, { waitUntil: 'networkidle' })
  await openContactPage(page)
  await page.waitForLoadState('networkidle')
  expect(requested.filter((path) => SEALER_CHUNK.test(path))).toEqual([])

  expect((await startOnForm(page)).ok()).toBe(true)
})

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' })

  /** After one visit online, /contact opened offline and the form started on: `then` runs there. */
  async function offlineOnForm(
    page: Page,
    context: BrowserContext,
    then: (started: Response) => Promise<void>,
  ) {
    await page.goto('/')
    await waitForOfflineReady(page)
    await goOffline(context)
    try {
      await openContactPage(page)
      await then(await startOnForm(page))
    } finally {
      await goOnline(context)
    }
  }

  test('the crypto chunk comes from the precache when the visitor is offline', async ({
    page,
    context,
  }) => {
    await offlineOnForm(page, context, async (response) => {
      expect(response.ok()).toBe(true)
      expect(response.fromServiceWorker()).toBe(true)
    })
  })

  test('the file engine comes from the precache when the visitor is offline', async ({
    page,
    context,
  }) => {
    await offlineOnForm(page, context, async () => {
      const engineLoaded = page.waitForResponse((response) =>
        FILE_ENGINE_CHUNK.test(new URL(response.url()).pathname),
      )
      const workerLoaded = page.waitForResponse((response) =>
        HASH_WORKER_SCRIPT.test(new URL(response.url()).pathname),
      )
      await attachFile(page)
      for (const response of [await engineLoaded, await workerLoaded]) {
        expect(response.ok(), response.url()).toBe(true)
        expect(response.fromServiceWorker(), response.url()).toBe(true)
      }
    })
  })
})
