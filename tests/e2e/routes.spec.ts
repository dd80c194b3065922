import { expectPageContent } from '../support/page-content'
import { allowNotFoundConsoleOn, allPages, waitForHydration } from '../support/site'
import { test } from '../support/strict-page'

/**
 * Spec §2, page by page, in the hydrated site. Every page is loaded directly under the strict
 * harness and left to settle (`networkidle`), so its lazily loaded chunks are fetched too: any
 * console error or warning, or any request to another origin, on any page fails here.
 */

for (const { id, path } of allPages) {
  test(`${path} shows its spec content once hydrated`, async ({ page, allowConsoleError }) => {
    allowNotFoundConsoleOn(path, allowConsoleError)
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    await waitForHydration(page)
    await expectPageContent(page, id, 'js')
  })
}
