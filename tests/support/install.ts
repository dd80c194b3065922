import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium'
import { waitForOfflineReady } from './offline'

/**
 * What Chromium says stands in the way of installing the app at `url`, once its service worker
 * has precached it: an empty list when it can be installed. Test contexts are incognito, where
 * Chromium never offers to install ("in-incognito"), so this opens a browser profile of its own,
 * as a visitor's or a staff member's browser has.
 */
export async function installabilityErrors(url: string): Promise<unknown[]> {
  const profile = await mkdtemp(join(tmpdir(), 'install-check-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    serviceWorkers: 'allow',
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    await page.goto(url)
    await waitForOfflineReady(page)
    const cdp = await context.newCDPSession(page)
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: unknown[]
    }
    return installabilityErrors
  } finally {
    await context.close()
    await rm(profile, { recursive: true, force: true })
  }
}
