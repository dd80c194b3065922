import { attachmentsFieldCopy } from '../../src/features/contact/attachments-copy'
import { siteRoutes } from '../../src/config/routes'
import { homeHero, trustSignals } from '../../src/content/home'
import { contactForm, openContactPage } from '../support/contact-form'
import { expect, test } from '../support/strict-page'

/**
 * The site's finish: on a laptop the quick-contact buttons cover no content; a phone's first screen
 * has one primary call to action; the home page's figures stand on one line and its five cards leave
 * no empty slot; the file picker is a styled button, keyboard first.
 */

const LAPTOPS = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const

test('on a laptop, the quick-contact buttons cover no content on any page, however far it scrolls', async ({
  page,
}) => {
  for (const size of LAPTOPS) {
    await page.setViewportSize(size)
    for (const route of siteRoutes) {
      await page.goto(route.path)
      const covered = await page.evaluate(() => {
        const aside = document.querySelector('aside[aria-label="Quick contact"]')
        if (!aside) return ['no quick-contact buttons']
        const buttons = aside.getBoundingClientRect()
        // Content: every element of the page's column. Backgrounds that run edge to edge (a
        // section's band) are not content.
        return [...document.querySelectorAll('main *, footer *')]
          .filter((element) => {
            const box = element.getBoundingClientRect()
            return (
              box.width > 0 &&
              box.height > 0 &&
              box.width < window.innerWidth * 0.9 &&
              element.checkVisibility({ visibilityProperty: true })
            )
          })
          .filter((element) => element.getBoundingClientRect().right > buttons.left)
          .map(
            (element) =>
              `${element.tagName.toLowerCase()} "${element.textContent?.trim().slice(0, 30)}" ends at ${Math.round(element.getBoundingClientRect().right)}, buttons from ${Math.round(buttons.left)}`,
          )
      })
      expect(covered, `${route.path} at ${size.width}px`).toEqual([])
    }
  }
})

test("a phone's first screen of the home page has one primary call to action", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto('/')
  const primaries = await page.evaluate(() => {
    const mint = getComputedStyle(document.documentElement).getPropertyValue('--color-mint').trim()
    const probe = document.createElement('span')
    probe.style.color = mint
    document.body.append(probe)
    const mintRgb = getComputedStyle(probe).color
    probe.remove()
    return [...document.querySelectorAll('a, button')]
      .filter((element) => {
        const box = element.getBoundingClientRect()
        return (
          element.checkVisibility({ visibilityProperty: true }) &&
          // The skip link is clipped away until focused.
          getComputedStyle(element).clipPath === 'none' &&
          box.bottom > 0 &&
          box.top < window.innerHeight &&
          getComputedStyle(element).backgroundColor === mintRgb
        )
      })
      .map((element) => element.textContent?.trim())
  })
  expect(primaries).toEqual([expect.stringContaining(homeHero.actions[0].label)])
})

test("the home page's figures stand on one line, and its five cards fill their rows", async ({
  page,
}) => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 768 },
    { width: 768, height: 1024 },
  ]) {
    await page.setViewportSize(size)
    await page.goto('/')
    const figures = page.getByRole('definition').filter({ hasText: trustSignals[0].value })
    await expect(figures).toHaveCount(1)
    const tops = await page
      .getByLabel('Track record')
      .getByRole('definition')
      .evaluateAll((values) => values.map((value) => Math.round(value.getBoundingClientRect().top)))
    expect(tops).toHaveLength(4)
    // Two rows of two below 1024 px, one row of four from there.
    const rows = new Set(tops)
    expect(rows.size, JSON.stringify(tops)).toBe(size.width >= 1024 ? 1 : 2)

    const slots = await page
      .locator('section[aria-labelledby="arsenal-heading"] > ul')
      .evaluate((list) => {
        const outer = list.getBoundingClientRect()
        const byRow = new Map<number, { left: number; right: number }>()
        for (const item of list.children) {
          const box = item.getBoundingClientRect()
          const row = byRow.get(Math.round(box.top)) ?? { left: Infinity, right: -Infinity }
          byRow.set(Math.round(box.top), {
            left: Math.min(row.left, box.left),
            right: Math.max(row.right, box.right),
          })
        }
        return [...byRow.values()].map(
          (row) => Math.abs(row.left - outer.left) < 1 && Math.abs(row.right - outer.right) < 1,
        )
      })
    expect(slots.every(Boolean), `${size.width}px: ${JSON.stringify(slots)}`).toBe(true)
  }
})

test('the file picker is a button beside the listed files, reached and opened from the keyboard', async ({
  page,
}) => {
  await openContactPage(page)
  const input = page.getByLabel(attachmentsFieldCopy.label)
  const button = page.getByText(attachmentsFieldCopy.choose, { exact: true })
  await expect(button).toBeVisible()
  // The browser's own picker ("No file chosen") takes no room on screen.
  const box = await input.boundingBox()
  expect(box && box.width <= 1 && box.height <= 1).toBe(true)

  await contactForm(page).message.focus()
  await page.keyboard.press('Tab')
  await expect(input).toBeFocused()
  await expect(button).toHaveCSS('outline-style', 'solid')
  const chooser = page.waitForEvent('filechooser')
  await page.keyboard.press('Space')
  await (
    await chooser
  ).setFiles([{ name: 'brief.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') }])
  await expect(page.getByText('brief.pdf')).toBeVisible()
  await expect(page.getByText(attachmentsFieldCopy.chooseMore, { exact: true })).toBeVisible()
})
