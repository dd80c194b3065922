import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { preview } from 'vite'
import { copy } from '../../src/inbox/content/copy'
import { buildIdOf, BUILD_MANIFEST_PATH } from '../../src/shared/build-id'
import { axeViolations } from '../support/axe'
import {
  E2E_INBOX_BUILD_DIR,
  E2E_INBOX_NEXT_BUILD_DIR,
  E2E_INBOX_UPDATE_PORT,
} from '../support/ports'
import { waitForInbox } from '../support/staff-inbox'
import { expect, test } from '../support/strict-page'

/** The inbox takes new code only when staff press "Update", after seeing which build it is. */

test.use({ serviceWorkers: 'allow' })

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

test('a new inbox waits, named by its build id, through reloads, until "Update" is pressed', async ({
  page,
}) => {
  const servedDir = await mkdtemp(join(tmpdir(), 'inbox-update-'))
  await cp(join(ROOT, E2E_INBOX_BUILD_DIR), servedDir, { recursive: true })
  const server = await preview({
    configFile: join(ROOT, 'src/inbox/vite.config.ts'),
    logLevel: 'silent',
    build: { outDir: servedDir },
    preview: { host: '127.0.0.1', port: E2E_INBOX_UPDATE_PORT, strictPort: true },
  })
  try {
    const origin = `http://127.0.0.1:${E2E_INBOX_UPDATE_PORT}`
    const header = page.locator('header.bar')
    await page.goto(`${origin}/`)
    await waitForInbox(page)
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    await page.reload()
    await waitForInbox(page)
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    await expect(header).not.toContainText('Umbra Growth Next')

    // Deploy the next build over the served folder, as a static host would.
    await rm(servedDir, { recursive: true, force: true })
    await cp(join(ROOT, E2E_INBOX_NEXT_BUILD_DIR), servedDir, { recursive: true })
    const nextId = await buildIdOf(await readFile(join(servedDir, BUILD_MANIFEST_PATH)))
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update()
    })

    const notice = page.getByRole('status').filter({ hasText: copy.update.heading })
    await expect(notice).toContainText(copy.update.ready(nextId))
    expect(await axeViolations(page)).toEqual([])
    await expect(header).not.toContainText('Umbra Growth Next')

    // A reload is not consent: the waiting version stays waiting, and says so again.
    await page.reload()
    await waitForInbox(page)
    await expect(notice).toContainText(copy.update.ready(nextId))
    await expect(header).not.toContainText('Umbra Growth Next')

    await notice.getByRole('button', { name: copy.update.take }).click()
    await expect(header).toContainText('Umbra Growth Next')
    await expect(notice).toHaveCount(0)
  } finally {
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
    await rm(servedDir, { recursive: true, force: true })
  }
})
