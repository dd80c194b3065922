import { expectDesktopHeader, expectFooter, expectPageContent } from '../support/page-content'
import { allPages, DESKTOP, gotoWithStatus, NOT_FOUND_PATH } from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * The prerendered HTML on its own: with JavaScript off, every page still shows its headings, cards,
 * calls to action with their links, the header and the footer (spec §2). Only the contact form is
 * inert, and says so.
 */
test.use({ javaScriptEnabled: false, viewport: DESKTOP })

for (const { id, path } of allPages) {
  test(`${path} shows its spec content, header and footer with JavaScript off`, async ({
    page,
    allowConsoleError,
  }) => {
    await gotoWithStatus(page, path, allowConsoleError)
    // Proof that no script ran: React would have attached its fiber keys to the h1.
    expect(
      await page
        .locator('main h1')
        .evaluate((h1) => Object.keys(h1).some((key) => key.startsWith('__react'))),
    ).toBe(false)
    await expectPageContent(page, id, 'no-js')
    await expectDesktopHeader(page, path === NOT_FOUND_PATH ? null : path)
    await expectFooter(page)
  })
}
