import type { Page } from '@playwright/test'
import { routeById } from '../../src/config/routes'
import { site } from '../../src/content/site'
import { siteEnv } from '../../src/lib/env'
import { expectDesktopHeader, expectFooter, expectLinks } from '../support/page-content'
import {
  allPages,
  DESKTOP,
  expectSameDocument,
  gotoHydrated,
  gotoHydratedAtDesktop,
  mainNavigation,
  markDocument,
  menuToggle,
  NOT_FOUND_PATH,
  pageHeading,
  PHONE,
  headerLinks,
} from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * The shared frame of spec §2: the fixed header and its small-screen menu, the floating contact
 * buttons and the footer.
 */

const mobileNavigation = (page: Page) =>
  page.getByRole('navigation', { name: 'Mobile', exact: true })

/** What the open small-screen menu offers: the header's items, then Start Project and Telegram. */
const mobileMenuLinks = [
  ...headerLinks,
  { label: site.startProjectLabel, target: { kind: 'page', to: '/contact' } as const },
  { label: site.telegramLabel, target: { kind: 'telegram' } as const },
]

for (const { path } of allPages) {
  test(`frame on ${path}: header with navigation, Start Project and Telegram marking the current page, and the footer`, async ({
    page,
    allowConsoleError,
  }) => {
    await gotoHydratedAtDesktop(page, path, allowConsoleError)
    await expectDesktopHeader(page, path === NOT_FOUND_PATH ? null : path)
    await expectFooter(page)
  })
}

test('header links navigate client-side: URL, h1, title and current item change without a reload', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP)
  await gotoHydrated(page, '/')
  await markDocument(page)
  for (const id of ['services', 'case-studies', 'about', 'contact', 'home'] as const) {
    const route = routeById(id)
    await mainNavigation(page).getByRole('link', { name: route.navLabel, exact: true }).click()
    await expect(page).toHaveURL(route.path)
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(
      pageHeading[id],
    )
    await expect(page).toHaveTitle(route.title)
    await expect(
      mainNavigation(page).getByRole('link', { name: route.navLabel, exact: true }),
    ).toHaveAttribute('aria-current', 'page')
  }
  await expectSameDocument(page)
})

test('mobile menu starts closed, opens on its toggle with every link, and closes on it again', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/')
  const toggle = menuToggle(page)
  await expect(mainNavigation(page)).toBeHidden()
  await expect(toggle).toBeVisible()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(mobileNavigation(page)).toBeHidden()

  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(mobileNavigation(page)).toBeVisible()
  const controlled = await toggle.getAttribute('aria-controls')
  expect(controlled).toBeTruthy()
  await expect(mobileNavigation(page)).toHaveAttribute('id', controlled ?? '')
  const links = mobileNavigation(page).getByRole('link')
  await expectLinks(links, mobileMenuLinks)
  for (const index of mobileMenuLinks.keys()) await expect(links.nth(index)).toBeVisible()
  await expect(links.first()).toHaveAttribute('aria-current', 'page')

  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(mobileNavigation(page)).toBeHidden()
})

test('Escape closes the mobile menu and returns focus to the toggle', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/services')
  const toggle = menuToggle(page)
  await toggle.click()
  await expect(mobileNavigation(page)).toBeVisible()
  // Move focus into the menu first, so returning it to the toggle is the menu's doing.
  await page.keyboard.press('Tab')
  await expect(mobileNavigation(page).getByRole('link').first()).toBeFocused()

  await page.keyboard.press('Escape')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(mobileNavigation(page)).toBeHidden()
  await expect(toggle).toBeFocused()
})

test('choosing a link in the mobile menu closes it and navigates client-side', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/')
  await markDocument(page)
  const toggle = menuToggle(page)
  await toggle.click()
  const route = routeById('case-studies')
  await mobileNavigation(page).getByRole('link', { name: route.navLabel, exact: true }).click()
  await expect(page).toHaveURL(route.path)
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(
    pageHeading['case-studies'],
  )
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(mobileNavigation(page)).toBeHidden()
  await expectSameDocument(page)
})

test('keyboard alone reaches the menu toggle with Tab, opens it with Enter and Tabs into its links', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await gotoHydrated(page, '/about')
  const toggle = menuToggle(page)
  let presses = 0
  while (
    !(await toggle.evaluate((element) => element === document.activeElement)) &&
    presses < 10
  ) {
    await page.keyboard.press('Tab')
    presses += 1
  }
  await expect(toggle).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(mobileNavigation(page)).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(
    mobileNavigation(page).getByRole('link', { name: routeById('home').navLabel, exact: true }),
  ).toBeFocused()
})

test('on a phone the Telegram and WhatsApp buttons share a bar across the bottom, which stays put', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await page.goto('/services')
  const { quickContact, telegram, whatsapp } = quickContactButtons(page)
  await expect(telegram).toHaveAttribute('href', siteEnv.telegramUrl)
  await expect(whatsapp).toHaveAttribute('href', siteEnv.whatsappUrl)

  const expectBottomBar = async () => {
    const bar = await quickContact.boundingBox()
    expect(bar, 'quick contact bar is laid out').not.toBeNull()
    if (!bar) return
    expect(bar.x).toBe(0)
    expect(bar.width).toBe(PHONE.width)
    expect(bar.y + bar.height).toBe(PHONE.height)
    // A compact strip: under 80px of an 812px screen.
    expect(bar.height).toBeLessThan(80)
    for (const button of [telegram, whatsapp]) {
      const box = await button.boundingBox()
      expect(box).not.toBeNull()
      if (!box) return
      expect(box.y).toBeGreaterThanOrEqual(bar.y)
      expect(box.width).toBeGreaterThanOrEqual(44)
      expect(box.height).toBeGreaterThanOrEqual(44)
    }
  }
  await expectBottomBar()
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  // At the very end (a smooth scroll takes a moment, longer as the page grows).
  await expect
    .poll(() =>
      page.evaluate(
        () => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1,
      ),
    )
    .toBe(true)
  await expectBottomBar()
  // The page ends with room for the bar: the footer's last line scrolls clear of it.
  const lastLine = await page
    .getByRole('contentinfo')
    .getByText('All rights reserved')
    .boundingBox()
  const bar = await quickContact.boundingBox()
  const where = await page.evaluate(() => ({
    scrollY: window.scrollY,
    innerHeight: window.innerHeight,
    scrollHeight: document.documentElement.scrollHeight,
  }))
  expect(lastLine, 'the footer is laid out').not.toBeNull()
  expect(bar, 'the bar is laid out').not.toBeNull()
  // Less than a pixel is rounding (the page's height has a fraction: its cards' text), not cover.
  expect(lastLine!.y + lastLine!.height, JSON.stringify({ lastLine, bar, ...where })).toBeLessThan(
    bar!.y + 1,
  )
})

test('from 640px the Telegram and WhatsApp buttons float at the bottom right', async ({ page }) => {
  const viewport = DESKTOP
  await page.setViewportSize(viewport)
  await page.goto('/services')
  const { quickContact, telegram, whatsapp } = quickContactButtons(page)
  await expect(telegram).toHaveAttribute('href', siteEnv.telegramUrl)
  await expect(whatsapp).toHaveAttribute('href', siteEnv.whatsappUrl)

  const expectBottomRight = async () => {
    const group = await quickContact.boundingBox()
    expect(group, 'quick contact buttons are laid out').not.toBeNull()
    if (!group) return
    // Within 40px of the right and bottom edges of the viewport, and fully inside it.
    expect(group.x + group.width).toBeLessThanOrEqual(viewport.width)
    expect(group.x + group.width).toBeGreaterThanOrEqual(viewport.width - 40)
    expect(group.y + group.height).toBeLessThanOrEqual(viewport.height)
    expect(group.y + group.height).toBeGreaterThanOrEqual(viewport.height - 40)
    for (const button of [telegram, whatsapp]) {
      const box = await button.boundingBox()
      expect(box).not.toBeNull()
      if (!box) return
      expect(box.x).toBeGreaterThan(viewport.width / 2)
      expect(box.y).toBeGreaterThan(viewport.height / 2)
      expect(box.width).toBeGreaterThanOrEqual(44)
      expect(box.height).toBeGreaterThanOrEqual(44)
    }
  }
  await expectBottomRight()
  // Floating: the buttons stay in place when the page scrolls.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  await expectBottomRight()
})

function quickContactButtons(page: Page) {
  const quickContact = page.getByRole('complementary', { name: 'Quick contact', exact: true })
  return {
    quickContact,
    telegram: quickContact.getByRole('link', { name: 'Chat on Telegram', exact: true }),
    whatsapp: quickContact.getByRole('link', { name: 'Message on WhatsApp', exact: true }),
  }
}
