import { type Page, type Request } from '@playwright/test'
import { gotoHydrated, menuToggle, openMenu, pageHeading, PHONE } from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * Phone first (issue 11): the menu behaves as a sheet, with and without JavaScript: a tap on the
 * dimmed page, Escape, focus kept inside, the page behind it still.
 */

const mobileMenu = (page: Page) => page.getByRole('navigation', { name: 'Mobile', exact: true })

/**
 * Links of the home page a thumb can hit below the open sheet: the hero's messenger buttons and the
 * quick-contact bar. Each leaves the site, so a tap meant to close the menu must not reach them.
 */
const linksUnderTheSheet = (page: Page) => [
  // On a phone the hero keeps one call to action; the chats are the quick-contact bar's.
  page.getByRole('complementary', { name: 'Quick contact', exact: true }).getByRole('link').first(),
  page.getByRole('complementary', { name: 'Quick contact', exact: true }).getByRole('link').last(),
]

/** Taps the centre of each link while the sheet is open: the sheet closes and nothing else happens. */
async function tapEachLinkThroughTheSheet(page: Page): Promise<void> {
  for (const link of linksUnderTheSheet(page)) {
    const box = await link.boundingBox()
    if (!box) throw new Error('a link the test taps is not on the page')
    await menuToggle(page).click()
    await expect(mobileMenu(page)).toBeVisible()
    const sheetEnd = await mobileMenu(page).getByRole('link').last().boundingBox()
    // The link really is under the dimmed page, below the sheet's last link.
    expect(box.y, 'link below the sheet').toBeGreaterThan(
      (sheetEnd?.y ?? 0) + (sheetEnd?.height ?? 0),
    )
    expect(box.y + box.height, 'link inside the screen').toBeLessThanOrEqual(PHONE.height)
    const opened: string[] = []
    const onRequest = (request: Request) => {
      if (request.isNavigationRequest()) opened.push(request.url())
    }
    const onPage = (popup: Page) => opened.push(`a new tab: ${popup.url()}`)
    page.on('request', onRequest)
    page.context().on('page', onPage)
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    await expect(mobileMenu(page)).toBeHidden()
    await page.waitForTimeout(300)
    page.off('request', onRequest)
    page.context().off('page', onPage)
    expect(opened, 'the tap went through to the link').toEqual([])
    expect(page.url()).toBe(new URL('/', page.url()).href)
  }
}

test('a tap on the dimmed page closes the menu sheet and does not open the link beneath', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/')
  await tapEachLinkThroughTheSheet(page)
  await expect(menuToggle(page)).toHaveAttribute('aria-expanded', 'false')
})

test('the menu sheet closes on Escape and gives focus back to its toggle', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/')
  await openMenu(page)
  await page.keyboard.press('Tab')
  await expect(mobileMenu(page).getByRole('link').first()).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(mobileMenu(page)).toBeHidden()
  await expect(menuToggle(page)).toBeFocused()
})

test('Tab and Shift+Tab stay inside the open menu: its toggle and its links', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/about')
  await openMenu(page)
  await menuToggle(page).focus()
  const links = await mobileMenu(page).getByRole('link').count()
  const insideMenu = () =>
    page.evaluate(() => {
      const active = document.activeElement
      return (
        active?.closest('nav[aria-label="Mobile"]') !== null ||
        (active instanceof HTMLButtonElement && active.getAttribute('aria-controls') !== null)
      )
    })
  for (let press = 0; press < links + 3; press++) {
    await page.keyboard.press('Tab')
    expect(await insideMenu(), `after ${press + 1} Tab`).toBe(true)
  }
  // Backwards from the toggle, focus wraps to the sheet's last link.
  await menuToggle(page).focus()
  await page.keyboard.press('Shift+Tab')
  await expect(mobileMenu(page).getByRole('link').last()).toBeFocused()
})

test('the page behind the open menu does not scroll; it scrolls again once the menu closes', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/case-studies')
  await openMenu(page)
  // Locked twice over: the page itself (for touch scrolls that start on the header) and the dimmed
  // strip, which keeps a scroll that starts on it from reaching the page.
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
    'hidden',
  )
  const before = await page.evaluate(() => window.scrollY)
  await page.mouse.move(PHONE.width / 2, PHONE.height - 40)
  await page.mouse.wheel(0, 800)
  await page.waitForTimeout(300)
  expect(await page.evaluate(() => window.scrollY)).toBe(before)
  await page.keyboard.press('Escape')
  await expect(mobileMenu(page)).toBeHidden()
  await page.mouse.wheel(0, 800)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before)
})

test.describe('the menu without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: PHONE })

  test('opens from its button, closes on Escape and on a tap outside (which opens nothing beneath), and its links load their page', async ({
    page,
  }) => {
    await page.goto('/')
    await expect(mobileMenu(page)).toBeHidden()
    await menuToggle(page).click()
    await expect(mobileMenu(page)).toBeVisible()
    // The page behind is locked by CSS alone.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
      'hidden',
    )
    await page.keyboard.press('Escape')
    await expect(mobileMenu(page)).toBeHidden()

    await tapEachLinkThroughTheSheet(page)

    await menuToggle(page).click()
    await mobileMenu(page).getByRole('link', { name: 'Services', exact: true }).click()
    await expect(page).toHaveURL('/services')
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(
      pageHeading.services,
    )
    await expect(mobileMenu(page)).toBeHidden()
  })
})
