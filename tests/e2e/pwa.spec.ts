import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { preview } from 'vite'
import { appUpdateCopy } from '../../src/content/app-update'
import { submitToasts } from '../../src/features/contact/contact-copy'
import { submissionsNamed, uniqueName } from '../support/backend-db'
import { contactForm, fillAndSend, openContactPage, toast } from '../support/contact-form'
import { installabilityErrors } from '../support/install'
import { waitForOfflineReady } from '../support/offline'
import { E2E_BUILD_DIR, E2E_NEXT_BUILD_DIR, E2E_UPDATE_PORT } from '../support/ports'
import { expect, test } from '../support/strict-page'

/** The installable app: manifest, icons, service worker, and updates by prompt. */

test.use({ serviceWorkers: 'allow' })

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BUILD = join(ROOT, E2E_BUILD_DIR)
const NEXT_BUILD = join(ROOT, E2E_NEXT_BUILD_DIR)

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

test('Chromium reports no installability error, and the manifest has what installing needs', async ({
  baseURL,
  request,
}) => {
  expect(await installabilityErrors(`${baseURL}/`)).toEqual([])

  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
    name: string
    short_name: string
    display: string
    start_url: string
    scope: string
    theme_color: string
    background_color: string
    icons: { src: string; sizes: string; purpose?: string }[]
  }
  expect(manifest).toMatchObject({ display: 'standalone', start_url: '/', scope: '/' })
  expect(manifest.name).toBeTruthy()
  expect(manifest.short_name).toBeTruthy()
  expect(manifest.theme_color).toMatch(/^#/)
  expect(manifest.background_color).toMatch(/^#/)
  const wanted = [
    { sizes: '192x192', purpose: undefined },
    { sizes: '512x512', purpose: undefined },
    { sizes: '512x512', purpose: 'maskable' },
  ]
  for (const { sizes, purpose } of wanted) {
    const icon = manifest.icons.find(
      (candidate) => candidate.sizes === sizes && candidate.purpose === purpose,
    )
    expect(icon, `${sizes} ${purpose ?? 'any'} icon`).toBeDefined()
    const response = await request.get(`/${icon?.src}`)
    expect(response.headers()['content-type']).toBe('image/png')
    const [width, height] = sizes.split('x').map(Number)
    expect(pngSize(await response.body())).toEqual({ width, height })
  }
})

test('the service worker precaches every page and never caches anything from Supabase', async ({
  page,
}) => {
  const name = uniqueName('Cache Check')
  await openContactPage(page)
  await waitForOfflineReady(page)
  await fillAndSend(page, { name, contact: 'cache@example.com', message: 'Is this cached?' })
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  expect(await submissionsNamed(name)).toHaveLength(1)

  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const key of await caches.keys()) {
      for (const request of await (await caches.open(key)).keys()) urls.push(request.url)
    }
    return urls
  })
  const origin = new URL(page.url()).origin
  expect(cached.filter((url) => !url.startsWith(origin))).toEqual([])
  expect(cached.some((url) => url.includes('rest/v1'))).toBe(false)
  for (const file of [
    'index.html',
    'services.html',
    'case-studies.html',
    'about.html',
    'contact.html',
    '404.html',
  ]) {
    expect(
      cached.some((url) => new URL(url).pathname === `/${file}`),
      file,
    ).toBe(true)
  }
})

test('a new build brings the update prompt; Reload serves it in that tab and leaves other tabs be', async ({
  page,
}) => {
  const servedDir = await mkdtemp(join(tmpdir(), 'site-update-'))
  await cp(BUILD, servedDir, { recursive: true })
  const server = await preview({
    root: ROOT,
    logLevel: 'silent',
    build: { outDir: servedDir },
    preview: { host: '127.0.0.1', port: E2E_UPDATE_PORT, strictPort: true },
  })
  try {
    const origin = `http://127.0.0.1:${E2E_UPDATE_PORT}`
    await page.goto(`${origin}/about`)
    await waitForOfflineReady(page)
    const footer = page.getByRole('contentinfo')
    // The first install says so quietly, in the footer, not in a toast over the page.
    await expect(footer.getByRole('status')).toContainText(appUpdateCopy.offlineReady.title)
    await expect(toast(page, appUpdateCopy.offlineReady.title)).toHaveCount(0)
    await expect(footer).toContainText('© ')
    await expect(footer).not.toContainText('Umbra Growth Next')

    // A second tab with a half-typed brief: choosing Reload in the first must not reload it.
    const other = await page.context().newPage()
    await other.goto(`${origin}/contact`)
    await expect(contactForm(other).name).toBeEnabled()
    await contactForm(other).message.fill('Half-typed brief, not sent yet.')

    // Deploy the next build over the served folder, as a static host would.
    await rm(servedDir, { recursive: true, force: true })
    await cp(NEXT_BUILD, servedDir, { recursive: true })
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update()
    })

    const prompt = toast(page, appUpdateCopy.updateAvailable.title)
    await expect(prompt).toBeVisible()
    // The old version keeps serving until the visitor chooses.
    await expect(footer).not.toContainText('Umbra Growth Next')
    await prompt.getByRole('button', { name: appUpdateCopy.reload }).click()

    await expect(page.getByRole('contentinfo')).toContainText('Umbra Growth Next')
    await expect(page).toHaveURL(`${origin}/about`)

    await expect(toast(other, appUpdateCopy.activatedElsewhere.title)).toBeVisible()
    await expect(contactForm(other).message).toHaveValue('Half-typed brief, not sent yet.')
    await expect(other.getByRole('contentinfo')).not.toContainText('Umbra Growth Next')
  } finally {
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
    await rm(servedDir, { recursive: true, force: true })
  }
})
