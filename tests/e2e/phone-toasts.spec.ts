import {
  formCopy,
  REQUIRED_FIELDS_MESSAGE,
  submitToasts,
} from '../../src/features/contact/contact-copy'
import { uniqueName } from '../support/backend-db'
import {
  contactForm,
  fillContactForm,
  INSERT_URL,
  openContactPage,
  serverErrorAnswer,
  toast,
} from '../support/contact-form'
import { DESKTOP, PHONE, PHONES } from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * Phone first (issue 11): toasts never cover Send or contradict each other, and an empty submit
 * brings the first field into view below the header.
 */

for (const viewport of PHONES) {
  test(`at ${viewport.width}px the toast after pressing Send never covers Send Securely`, async ({
    page,
    allowConsoleError,
  }) => {
    allowConsoleError(/Contact submission failed|status of 500/)
    await page.setViewportSize(viewport)
    await page.route(INSERT_URL, (route) => route.fulfill(serverErrorAnswer('boom')))
    await openContactPage(page)
    await fillContactForm(page, {
      name: uniqueName('Toast Place'),
      contact: 'place@example.com',
      message: 'Hello.',
    })
    const send = contactForm(page).submit
    await send.click()
    const failed = toast(page, submitToasts.failed.title)
    await expect(failed).toBeVisible()
    // Where the visitor's thumb is: the button, in view, with the message clear of it.
    const [toastBox, sendBox] = [await failed.boundingBox(), await send.boundingBox()]
    if (!toastBox || !sendBox) throw new Error('the toast or the button is not on the page')
    expect(sendBox.y + sendBox.height, 'Send in view').toBeLessThanOrEqual(viewport.height)
    const overlap =
      Math.min(toastBox.y + toastBox.height, sendBox.y + sendBox.height) -
      Math.max(toastBox.y, sendBox.y)
    expect(
      overlap,
      `toast ${toastBox.y}-${toastBox.y + toastBox.height}, Send ${sendBox.y}-${sendBox.y + sendBox.height}`,
    ).toBeLessThanOrEqual(0)
  })
}

test('after a successful send no earlier validation toast remains', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await page.route(INSERT_URL, (route) =>
    route.fulfill({ status: 201, headers: { 'access-control-allow-origin': '*' }, body: '' }),
  )
  await openContactPage(page)
  await contactForm(page).submit.click()
  await expect(toast(page, REQUIRED_FIELDS_MESSAGE)).toBeVisible()

  await fillContactForm(page, {
    name: uniqueName('Toast Order'),
    contact: 'toast@example.com',
    message: 'Hello.',
  })
  // Still on screen (it would close by itself after 5 s): the send must be what removes it.
  await expect(toast(page, REQUIRED_FIELDS_MESSAGE)).toBeVisible({ timeout: 1_000 })
  await contactForm(page).submit.click()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  await expect(toast(page, REQUIRED_FIELDS_MESSAGE)).toHaveCount(0, { timeout: 1_000 })

  // On a phone the toast sits at the bottom, clear of the page's heading.
  const [toastBox, headingBox] = [
    await toast(page, submitToasts.sent.title).boundingBox(),
    await page.getByRole('main').getByRole('heading', { level: 1 }).boundingBox(),
  ]
  if (toastBox && headingBox && headingBox.y + headingBox.height > 0) {
    expect(toastBox.y).toBeGreaterThan(headingBox.y + headingBox.height)
  }
})

for (const viewport of [PHONE, DESKTOP]) {
  test(`at ${viewport.width}px an empty submit focuses the first field with its label below the header`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await openContactPage(page)
    // Scrolled so that the fields are above the screen: the focus has to bring one back.
    await contactForm(page).submit.scrollIntoViewIfNeeded()
    await page.evaluate(() => window.scrollBy(0, 400))
    await contactForm(page).submit.click()
    await expect(contactForm(page).name).toBeFocused()
    const label = page.locator('label', { hasText: formCopy.name.label })
    const [labelBox, headerBox] = [
      await label.boundingBox(),
      await page.getByRole('banner').boundingBox(),
    ]
    expect(labelBox && headerBox && labelBox.y >= headerBox.y + headerBox.height).toBe(true)
  })
}
