import { formCopy } from '../../src/features/contact/contact-copy'
import {
  allowNotFoundConsoleOn,
  allPages,
  gotoHydrated,
  NOT_FOUND_CONSOLE,
  NOT_FOUND_PATH,
  openMenu,
  PHONE,
  sidewaysOverflow,
} from '../support/site'
import { expect, HARNESS_CONSOLE_NOTES, test } from '../support/strict-page'

/**
 * The prerendered markup and the first client render agree (React 18 reports any mismatch on the
 * console, which the strict harness and these tests catch), and no page scrolls sideways at any
 * width from a small phone to a wide desktop.
 */

const WIDTHS = [320, 375, 768, 1280, 1440] as const

for (const { path } of allPages) {
  test(`${path} hydrates into an interactive page without a word on the console`, async ({
    page,
    allowConsoleError,
  }) => {
    const expected = path === NOT_FOUND_PATH ? NOT_FOUND_CONSOLE : []
    expected.forEach(allowConsoleError)
    const lines: string[] = []
    page.on('console', (message) => {
      const line = `${message.type()}: ${message.text()}`
      if (!HARNESS_CONSOLE_NOTES.includes(line)) lines.push(line)
    })
    page.on('pageerror', (error) => lines.push(`uncaught: ${error.message}`))

    await page.setViewportSize(PHONE)
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    // Interactive: the menu toggle responds, which needs React attached to the prerendered header.
    await openMenu(page)
    if (path === '/contact') {
      // The form's fieldset is disabled in the prerendered HTML and enabled once hydrated.
      await expect(page.getByRole('button', { name: formCopy.submit, exact: true })).toBeEnabled()
      await expect(
        page.getByRole('textbox', { name: formCopy.name.label, exact: true }),
      ).toBeEnabled()
    }
    // Everything said on the console is one of the lines this page says on purpose (none but on 404).
    expect(lines.filter((line) => !expected.some((pattern) => pattern.test(line)))).toEqual([])
    expect(lines).toHaveLength(expected.length)
  })

  test(`${path} never scrolls sideways from 320px to 1440px`, async ({
    page,
    allowConsoleError,
  }) => {
    allowNotFoundConsoleOn(path, allowConsoleError)
    await page.setViewportSize({ width: WIDTHS[0], height: 800 })
    await gotoHydrated(page, path)
    const overflows: string[] = []
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 })
      overflows.push(...(await sidewaysOverflow(page, `${width}px`)))
    }
    // The open phone menu must not widen the page either.
    await page.setViewportSize({ width: WIDTHS[0], height: 800 })
    await openMenu(page)
    overflows.push(...(await sidewaysOverflow(page, `${WIDTHS[0]}px, menu open`)))
    expect(overflows).toEqual([])
  })
}
