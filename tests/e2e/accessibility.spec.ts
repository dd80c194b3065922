import { axeViolations } from '../support/axe'
import { allPages, DESKTOP, gotoHydratedAtDesktop, openMenu, PHONE } from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * axe-core on every page at phone and desktop widths, with the phone menu open too, and the skip
 * link as the first stop of the keyboard.
 */

for (const { path } of allPages) {
  test(`${path} has no axe violations at 1280px and 375px, with the menu closed and open`, async ({
    page,
    allowConsoleError,
  }) => {
    await gotoHydratedAtDesktop(page, path, allowConsoleError)
    expect(await axeViolations(page), `axe at ${DESKTOP.width}px`).toEqual([])

    await page.setViewportSize(PHONE)
    expect(await axeViolations(page), `axe at ${PHONE.width}px`).toEqual([])

    // Opening the menu changes only the header; the rest of the page was just checked at this width.
    await openMenu(page)
    expect(await axeViolations(page, 'header'), `axe at ${PHONE.width}px, menu open`).toEqual([])
  })

  test(`"Skip to content" is the first Tab stop on ${path} and moves focus to the main content`, async ({
    page,
    allowConsoleError,
  }) => {
    await gotoHydratedAtDesktop(page, path, allowConsoleError)
    await page.keyboard.press('Tab')
    const skipLink = page.getByRole('link', { name: 'Skip to content', exact: true })
    await expect(skipLink).toBeFocused()
    // Visible once focused, not just present for screen readers.
    const box = await skipLink.boundingBox()
    expect(box?.width ?? 0).toBeGreaterThan(40)
    expect(box?.height ?? 0).toBeGreaterThan(16)

    await page.keyboard.press('Enter')
    await expect(page.getByRole('main')).toBeFocused()
    // The next Tab continues inside the main content, not back in the header.
    await page.keyboard.press('Tab')
    expect(
      await page.evaluate(
        () => document.querySelector('main')?.contains(document.activeElement) ?? false,
      ),
    ).toBe(true)
  })
}
