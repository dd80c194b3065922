import { type Browser, type BrowserContextOptions } from '@playwright/test'
import { appUpdateCopy } from '../../src/content/app-update'
import { waitForOfflineReady } from '../support/offline'
import {
  allPages,
  gotoHydrated,
  NOT_FOUND_PATH,
  openMenu,
  pageHeading,
  PHONES,
} from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * Phone first (issue 11): the first visit is calm: "Ready to work offline" covers neither the
 * heading nor the menu.
 */

/**
 * A first visit in its own context, with the service worker allowed: it installs, caches the site
 * and says "Ready to work offline".
 */
async function firstVisit(browser: Browser, options: BrowserContextOptions, path: string) {
  const context = await browser.newContext({ ...options, serviceWorkers: 'allow' })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error' && path !== NOT_FOUND_PATH) errors.push(message.text())
  })
  await gotoHydrated(page, path)
  await waitForOfflineReady(page)
  return { context, page, errors }
}

for (const viewport of PHONES) {
  test(`at ${viewport.width}px the first visit's "Ready to work offline" never covers the heading or the menu`, async ({
    browser,
    baseURL,
  }) => {
    // Each page is a first visit of its own: a fresh browser context installs the service worker.
    test.setTimeout(150_000)
    for (const { id, path } of allPages) {
      const { context, page, errors } = await firstVisit(browser, { viewport, baseURL }, path)
      try {
        const notice = page.getByText(appUpdateCopy.offlineReady.title)
        await expect(notice).toBeVisible()
        const heading = page.getByRole('main').getByRole('heading', { level: 1 })
        await expect(heading).toHaveText(pageHeading[id])
        // It is a quiet line in the footer, in the page's flow: it can cover nothing.
        expect(await notice.evaluate((element) => element.closest('footer') !== null)).toBe(true)
        const [noticeBox, headingBox] = [await notice.boundingBox(), await heading.boundingBox()]
        expect(noticeBox && headingBox && noticeBox.y > headingBox.y + headingBox.height).toBe(true)
        // Nor is it in a toast over the page, where the open menu would be.
        await expect(page.getByRole('region', { name: /Notifications/ })).toHaveCount(0)
        await openMenu(page)
        await expect(page.getByRole('navigation', { name: 'Mobile', exact: true })).toBeVisible()
        expect(errors).toEqual([])
      } finally {
        await context.close()
      }
    }
  })
}
