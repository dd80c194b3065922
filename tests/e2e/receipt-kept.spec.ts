import { submitToasts } from '../../src/features/contact/contact-copy'
import { panelCopy } from '../../src/features/contact/inquiry-panel-copy'
import { uniqueName } from '../support/backend-db'
import { contactForm, fillAndSend, openContactPage, toast } from '../support/contact-form'
import { expect, test } from '../support/strict-page'

/**
 * After Send on a phone, the receipt (shown only once) can be read and kept where it lands: the
 * panel comes into view with the twelve words numbered and wholly on screen, under no fixed layer
 * (header, toast, quick-contact bar, outbox status), while the toast still shows; the emptied form
 * stays hidden until "Send another message", a button, is pressed.
 */

const PHONE_SCREENS = [
  { width: 320, height: 740 },
  { width: 375, height: 812 },
  { width: 412, height: 915 },
] as const

/** What stands over the element: each visible fixed or sticky layer its box overlaps. */
function layersOver(selector: string) {
  const element = document.querySelector(selector)
  if (!element) return ['nothing matches']
  const box = element.getBoundingClientRect()
  const problems: string[] = []
  if (box.top < 0 || box.bottom > window.innerHeight)
    problems.push(`off screen: ${Math.round(box.top)}-${Math.round(box.bottom)}`)
  for (const layer of document.querySelectorAll('body *')) {
    if (!['fixed', 'sticky'].includes(getComputedStyle(layer).position)) continue
    if (layer.contains(element)) continue
    if (!layer.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue
    const cover = layer.getBoundingClientRect()
    const overlapX = Math.min(box.right, cover.right) - Math.max(box.left, cover.left)
    const overlapY = Math.min(box.bottom, cover.bottom) - Math.max(box.top, cover.top)
    if (overlapX > 1 && overlapY > 1)
      problems.push(`under ${layer.tagName.toLowerCase()} "${layer.textContent?.slice(0, 40)}"`)
  }
  return problems
}

/** Laid out, and whatever slides (a toast coming in, the bar coming back) has stopped. */
const settled = () =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))).then(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished)),
  )

for (const screen of PHONE_SCREENS) {
  test(`at ${screen.width} x ${screen.height} the receipt comes into view numbered and under no fixed layer; the form waits for "Send another message"`, async ({
    page,
  }) => {
    await page.setViewportSize(screen)
    await openContactPage(page)
    await fillAndSend(page, {
      name: uniqueName('Receipt Kept'),
      contact: 'kept@example.com',
      message: 'Keeping the receipt on a phone.',
    })
    const panel = page.getByRole('region', { name: panelCopy.heading })
    await expect(panel).toBeVisible()
    const sent = toast(page, submitToasts.sent.title)
    await expect(sent).toBeVisible()
    await page.evaluate(settled)

    const receipt = panel.getByRole('list', { name: panelCopy.receiptHeading })
    const words = receipt.getByRole('listitem')
    await expect(words).toHaveCount(12)
    await expect(words.first()).toHaveText(/^1\.\s*[a-z]+$/)
    await expect(words.last()).toHaveText(/^12\.\s*[a-z]+$/)
    await receipt.evaluate((list) => list.setAttribute('data-measured', ''))
    expect(await page.evaluate(layersOver, '[data-measured]')).toEqual([])
    // The toast is still up: the words were measured while it shows.
    await expect(sent).toBeVisible()

    // The emptied form is out of the way until the visitor asks for it.
    const form = contactForm(page)
    await expect(form.submit).toBeHidden()
    await panel.getByRole('button', { name: panelCopy.another }).click()
    await expect(panel).toHaveCount(0)
    await expect(form.name).toBeFocused()
    await expect(form.name).toHaveValue('')
    await expect(form.submit).toBeVisible()
  })
}
