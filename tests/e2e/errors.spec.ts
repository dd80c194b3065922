import type { Page } from '@playwright/test'
import { routeById } from '../../src/config/routes'
import { notFoundContent, routeErrorContent } from '../../src/content/not-found'
import {
  DESKTOP,
  expectSameDocument,
  gotoHydrated,
  mainNavigation,
  markDocument,
  NOT_FOUND_CONSOLE,
  NOT_FOUND_PATH,
  pageHeading,
  pushPath,
} from '../support/site'
import { expect, test } from '../support/strict-page'

/** Spec §2 "Not found" and "Generic fallback", spec §8 error catalogue. */
test.use({ viewport: DESKTOP })

const heading = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 })

/** Every console line of the page, as "type: text". */
function recordConsole(page: Page): string[] {
  const lines: string[] = []
  page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`))
  return lines
}

test('an unknown address answers 404 with the 404 page and logs the missing path', async ({
  page,
  allowConsoleError,
}) => {
  NOT_FOUND_CONSOLE.forEach(allowConsoleError)
  const lines = recordConsole(page)
  const response = await page.goto(NOT_FOUND_PATH)
  expect(response?.status()).toBe(404)
  await expect(
    page.getByRole('main').getByText(notFoundContent.code, { exact: true }),
  ).toBeVisible()
  await expect(heading(page)).toHaveText(notFoundContent.heading)
  await expect(
    page.getByRole('main').getByRole('link', { name: notFoundContent.homeLinkLabel }),
  ).toHaveAttribute('href', '/')
  await expect
    .poll(() => lines.filter((line) => line.startsWith('error: ') && line.includes(NOT_FOUND_PATH)))
    .toHaveLength(1)
})

test('Return to Home on the 404 page leads to the home page', async ({
  page,
  allowConsoleError,
}) => {
  NOT_FOUND_CONSOLE.forEach(allowConsoleError)
  await gotoHydrated(page, NOT_FOUND_PATH)
  await markDocument(page)
  await page.getByRole('main').getByRole('link', { name: notFoundContent.homeLinkLabel }).click()
  await expect(page).toHaveURL('/')
  await expect(heading(page)).toHaveText(pageHeading.home)
  await expect(page).toHaveTitle(routeById('home').title)
  await expectSameDocument(page)
})

test('client-side navigation to an unknown address shows the 404 page and logs that path', async ({
  page,
  allowConsoleError,
}) => {
  NOT_FOUND_CONSOLE.forEach(allowConsoleError)
  const lines = recordConsole(page)
  const missing = '/services/no-such-service'
  await gotoHydrated(page, '/services')
  await markDocument(page)
  await pushPath(page, missing)
  await expect(heading(page)).toHaveText(notFoundContent.heading)
  await expect(
    page.getByRole('main').getByText(notFoundContent.code, { exact: true }),
  ).toBeVisible()
  await expect
    .poll(() => lines.filter((line) => line.startsWith('error: ') && line.includes(missing)))
    .toHaveLength(1)
  await expect(mainNavigation(page).locator('[aria-current="page"]')).toHaveCount(0)
  await expectSameDocument(page)
})

test('a page whose code fails to load shows the generic error page inside the frame, and the header recovers', async ({
  page,
  allowConsoleError,
}) => {
  // The aborted request and the failed dynamic import are reported on the console: expected here.
  allowConsoleError(/Failed to load resource: net::ERR_FAILED/)
  allowConsoleError(/Failed to fetch dynamically imported module/)
  await gotoHydrated(page, '/')
  await markDocument(page)
  let aborted = 0
  await page.route('**/assets/services-*.js', (route) => {
    aborted += 1
    return route.abort()
  })

  await mainNavigation(page)
    .getByRole('link', { name: routeById('services').navLabel, exact: true })
    .click()
  await expect(page).toHaveURL('/services')
  await expect(heading(page)).toHaveText(routeErrorContent.heading)
  // The message is the failed dynamic import's own, naming the chunk that did not arrive.
  await expect(page.getByRole('main')).toContainText(
    /Failed to fetch dynamically imported module: \S*\/assets\/services-[\w-]+\.js/,
  )
  expect(aborted).toBeGreaterThan(0)
  await expect(page.getByRole('banner')).toBeVisible()
  await expect(page.getByRole('contentinfo')).toBeVisible()

  const about = routeById('about')
  await mainNavigation(page).getByRole('link', { name: about.navLabel, exact: true }).click()
  await expect(page).toHaveURL(about.path)
  await expect(heading(page)).toHaveText(pageHeading.about)
  await expect(page.getByText(routeErrorContent.heading)).toHaveCount(0)
  await expect(page).toHaveTitle(about.title)
  await expectSameDocument(page)
})
