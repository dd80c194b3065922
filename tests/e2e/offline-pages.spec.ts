import { headerRoutes, siteRoutes } from '../../src/config/routes'
import { outboxCopy } from '../../src/features/outbox/outbox-copy'
import { goOffline, waitForOfflineReady } from '../support/offline'
import { NOT_FOUND_CONSOLE, NOT_FOUND_PATH, pageHeading } from '../support/site'
import { expect, test } from '../support/strict-page'

/** Offline after one visit: every page comes from the service worker's precache. */

test.use({ serviceWorkers: 'allow' })

test('after one visit, every route opens offline by its address', async ({
  page,
  context,
  allowConsoleError,
}) => {
  NOT_FOUND_CONSOLE.forEach(allowConsoleError)
  // /privacy asks the host for the build id, past any cache: offline, that request fails.
  allowConsoleError(/ERR_INTERNET_DISCONNECTED/)
  await page.goto('/')
  await waitForOfflineReady(page)
  await goOffline(context)

  for (const route of siteRoutes) {
    await page.goto(route.path)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pageHeading[route.id])
    await expect(page).toHaveTitle(route.title)
  }
  // An unknown address answers as the server does: the 404 page, with status 404.
  const missing = await page.goto(NOT_FOUND_PATH)
  expect(missing?.fromServiceWorker()).toBe(true)
  expect(missing?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pageHeading['not-found'])
  await expect(page.getByText(outboxCopy.offline)).toBeVisible()
})

test('after one visit, every route opens offline by navigation from the header', async ({
  page,
  context,
}) => {
  await page.goto('/about')
  await waitForOfflineReady(page)
  await goOffline(context)
  await page.reload()

  const nav = page.getByRole('navigation', { name: 'Main' })
  for (const route of [...headerRoutes].reverse()) {
    await nav.getByRole('link', { name: route.navLabel, exact: true }).click()
    await expect(page).toHaveURL(route.path)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pageHeading[route.id])
  }
})
