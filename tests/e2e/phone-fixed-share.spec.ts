import { submitToasts } from '../../src/features/contact/contact-copy'
import { outboxCopy } from '../../src/features/outbox/outbox-copy'
import {
  contactForm,
  fillAndSend,
  openContactPage,
  startOnForm,
  toast,
} from '../support/contact-form'
import { fixedShareBelowHeader } from '../support/fixed-layers'
import { goOffline, goOnline } from '../support/offline'
import { expect, test } from '../support/strict-page'

/**
 * Issue 27, item 5: the phone's screen stays the visitor's. Below the header, the fixed layers (the
 * quick-contact bar, the outbox's status, the toasts) take at most 15 % of the screen's height
 * while no toast shows, offline with a message waiting too, and at most 25 % while one does.
 */

/** Small, common and large phones, at their usual heights. */
const PHONE_SCREENS = [
  { width: 320, height: 740 },
  { width: 375, height: 812 },
  { width: 412, height: 915 },
] as const

const WITHOUT_TOAST = 0.15
const WITH_TOAST = 0.25

/**
 * Settled: what changed is laid out (and its reserve set), and the layers that slide (the bar
 * stepping aside or back, a toast coming in) have finished moving, before anything is measured.
 */
const settled = () =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))).then(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished)),
  )

for (const screen of PHONE_SCREENS) {
  test(`at ${screen.width} x ${screen.height} the fixed layers below the header leave the screen to the page, idle, offline with a message waiting, and with a toast`, async ({
    page,
    context,
    allowConsoleError,
  }) => {
    allowConsoleError(/ERR_INTERNET_DISCONNECTED/)
    await page.setViewportSize(screen)
    await openContactPage(page)
    await page.evaluate(settled)
    const share = { idle: await fixedShareBelowHeader(page), toast: 0, waiting: 0 }

    expect((await startOnForm(page)).ok()).toBe(true)
    await page.waitForLoadState('networkidle')
    await goOffline(context)
    await fillAndSend(page, {
      name: 'Share Sender',
      contact: 'share@example.com',
      message: 'Queued on a phone.',
    })
    const queued = toast(page, submitToasts.queued.title)
    await expect(queued).toBeVisible()
    await expect(page.getByText(outboxCopy.waiting(1), { exact: true })).toBeVisible()
    await expect(page.getByText(outboxCopy.offline, { exact: true })).toBeVisible()
    // The visitor's thumb leaves the form: the quick-contact bar comes back (unless the toast
    // stands at the top, where it steps aside), the worst case.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.evaluate(settled)
    share.toast = await fixedShareBelowHeader(page)
    const placement = await page.locator('ol[data-placement]').getAttribute('data-placement')

    await expect(queued).toHaveCount(0, { timeout: 10_000 })
    await expect(contactForm(page).name).toHaveValue('')
    await page.evaluate(settled)
    share.waiting = await fixedShareBelowHeader(page)

    const shown = JSON.stringify({ ...share, toastAt: placement })
    expect(share.idle, shown).toBeLessThanOrEqual(WITHOUT_TOAST)
    expect(share.waiting, shown).toBeLessThanOrEqual(WITHOUT_TOAST)
    expect(share.toast, shown).toBeLessThanOrEqual(WITH_TOAST)
  })
}

test('the outbox\'s "Message Sent Securely" replaces the same message\'s "Saved on this device"', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(/ERR_INTERNET_DISCONNECTED/)
  await page.setViewportSize(PHONE_SCREENS[1])
  await openContactPage(page)
  expect((await startOnForm(page)).ok()).toBe(true)
  await page.waitForLoadState('networkidle')
  await goOffline(context)
  await fillAndSend(page, { name: 'Stale Toast', contact: 'stale@example.com', message: 'Hello.' })
  const queued = toast(page, submitToasts.queued.title)
  await expect(queued).toBeVisible()

  await goOnline(context)
  // Well within the 5 s the saved toast would stay by itself.
  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 3_000 })
  await expect(queued).toHaveCount(0, { timeout: 1_000 })
})
