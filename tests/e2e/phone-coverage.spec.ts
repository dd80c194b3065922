import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Locator, type Page } from '@playwright/test'
import { submitToasts } from '../../src/features/contact/contact-copy'
import { outboxCopy } from '../../src/features/outbox/outbox-copy'
import { panelCopy } from '../../src/features/contact/inquiry-panel-copy'
import {
  contactForm,
  fillAndSend,
  INSERT_URL,
  openContactPage,
  refuseInserts,
  toast,
} from '../support/contact-form'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium'
import { coveredControls } from '../support/fixed-layers'
import {
  allowNotFoundConsoleOn,
  allPages,
  DESKTOP,
  gotoHydrated,
  NOT_FOUND_CONSOLE,
  NOT_FOUND_PATH,
  PHONE,
  PHONES,
} from '../support/site'
import { expect, HARNESS_CONSOLE_NOTES, test } from '../support/strict-page'

/**
 * Phone first (issue 11): on the phones most visitors use, in the browser and as the installed app,
 * nothing fixed covers what a thumb must reach: the quick-contact bar, the outbox's pills, the
 * offline indicator, the notch and the rounded corners.
 */

/**
 * The installed app on an iPhone draws under the status bar and the home indicator
 * (`viewport-fit=cover`): Chromium emulates those insets through the DevTools protocol.
 */
const STANDALONE_INSETS = { top: 47, bottom: 34, left: 0, right: 0 }

/**
 * The site as an installed app: Chromium installs it from its manifest and moves the page into an
 * app window, where `display-mode: standalone` matches (Playwright's media emulation has no
 * display mode). Installing needs a browser profile of its own; test contexts are incognito.
 */
async function openInstalledApp(baseURL: string, viewport: { width: number; height: number }) {
  const profile = await mkdtemp(join(tmpdir(), 'site-standalone-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport,
    serviceWorkers: 'block',
  })
  const page = context.pages()[0] ?? (await context.newPage())
  const problems: string[] = []
  const allowed: RegExp[] = [...NOT_FOUND_CONSOLE]
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
  page.on('console', (message) => {
    const text = message.text()
    const expected =
      HARNESS_CONSOLE_NOTES.includes(`${message.type()}: ${text}`) ||
      allowed.some((line) => line.test(text))
    if ((message.type() === 'error' || message.type() === 'warning') && !expected)
      problems.push(text)
  })
  await page.goto(`${baseURL}/`)
  const cdp = await context.newCDPSession(page)
  const manifestId = new URL('/', baseURL).href
  await cdp.send('PWA.install', { manifestId })
  await cdp.send('PWA.openCurrentPageInApp', { manifestId })
  await expect
    .poll(() => page.evaluate(() => matchMedia('(display-mode: standalone)').matches))
    .toBe(true)
  await page.setViewportSize(viewport)
  await (
    await context.newCDPSession(page)
  ).send('Emulation.setSafeAreaInsetsOverride', { insets: STANDALONE_INSETS })
  const close = async () => {
    await context.close()
    await rm(profile, { recursive: true, force: true })
  }
  const allowConsoleError = (pattern: RegExp) => void allowed.push(pattern)
  return { page, problems, allowConsoleError, close }
}

/**
 * The outbox's status pills, each as the visitor meets it: the offline indicator, a message waiting
 * to send, and the button for a message the backend refused.
 */
const pill = {
  offline: (page: Page) => page.getByText(outboxCopy.offline, { exact: true }),
  waiting: (page: Page) => page.getByText(outboxCopy.waiting(1), { exact: true }),
  notDelivered: (page: Page) =>
    page.getByRole('button', { name: outboxCopy.notDelivered(1), exact: true }),
} satisfies Record<string, (page: Page) => Locator>

/**
 * Opens each of `paths` with `pills` on screen (cutting the connection after hydration when the
 * offline indicator is one of them) and lists every control a fixed element covers there.
 */
async function coveredWithPills(
  page: Page,
  paths: readonly string[],
  pills: ReadonlyArray<keyof typeof pill>,
  { navigate = true }: { navigate?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = []
  for (const path of paths) {
    // `navigate: false`: the page is already at `path`, hydrated (a caller checked it without pills).
    if (navigate) await gotoHydrated(page, path)
    for (const name of pills) if (name !== 'offline') await expect(pill[name](page)).toBeVisible()
    if (pills.includes('offline')) {
      // The connection drops once the page has loaded what it loads by itself (the outbox's code
      // among it), as when a visitor walks out of coverage.
      await page.waitForLoadState('networkidle')
      await page.context().setOffline(true)
      await expect(pill.offline(page)).toBeVisible()
    }
    // A rendered frame: what the pills change around them is laid out before anything is measured.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    )
    problems.push(
      ...(await coveredControls(page)).map(
        (problem) => `${path} with ${pills.join(' + ')}: ${problem}`,
      ),
    )
    if (pills.includes('offline')) await page.context().setOffline(false)
  }
  return problems
}

/** What queuing and refusing messages makes the page log: the failed inserts and the refusal itself. */
const PILL_CONSOLE = /ERR_CONNECTION_RESET|status of 4\d\d|queued contact message was refused/

/** Sends a message from /contact that gets no answer (a reset connection): it is queued, online too. */
async function queueUnanswered(page: Page, name: string): Promise<void> {
  await page.unroute(INSERT_URL)
  await page.route(INSERT_URL, (route) => route.abort('connectionreset'))
  await gotoHydrated(page, '/contact')
  await expect(contactForm(page).name).toBeEnabled()
  await fillAndSend(page, {
    name,
    contact: 'pills@example.com',
    message: 'Sent from a phone on a poor connection.',
  })
  await expect(toast(page, submitToasts.queued.title)).toBeVisible()
}

/**
 * The message waiting is refused the next time the outbox sends it: by PostgreSQL itself, which
 * knows no such key. The page hears that the connection is back (the outbox's one trigger that
 * sends at once, whatever the retry schedule says) until the refusal shows.
 */
async function refuseWaiting(page: Page): Promise<void> {
  // Over the reset connection's route (the newest route answers first): no moment without either.
  await refuseInserts(page, { key_id: 'ffffffffffffffff' })
  await expect(async () => {
    await page.evaluate(() => window.dispatchEvent(new Event('online')))
    await expect(pill.notDelivered(page)).toBeVisible({ timeout: 1_000 })
  }).toPass()
}

/**
 * Every way the outbox's pills can stand over the form and the home page, one after another: a
 * message the database refused (the review button), then a second one waiting as well, then all
 * three at once (offline, waiting and refused: the tallest the stack gets), and last, once the
 * refused message is discarded from the review, the one waiting alone. Lists every control a
 * fixed element covers on the way.
 */
async function coveredByEveryPill(page: Page): Promise<string[]> {
  const paths = ['/contact', '/'] as const
  const problems: string[] = []
  await queueUnanswered(page, 'Refused Pill')
  await refuseWaiting(page)
  problems.push(...(await coveredWithPills(page, paths, ['notDelivered'])))

  await queueUnanswered(page, 'Waiting Pill')
  problems.push(...(await coveredWithPills(page, paths, ['waiting', 'notDelivered'])))
  problems.push(...(await coveredWithPills(page, paths, ['offline', 'waiting', 'notDelivered'])))

  await pill.notDelivered(page).click()
  await page
    .getByRole('dialog', { name: outboxCopy.reviewTitle })
    .getByRole('button', { name: outboxCopy.discard })
    .click()
  await expect(pill.notDelivered(page)).toBeHidden()
  problems.push(...(await coveredWithPills(page, paths, ['waiting'])))
  return problems
}

for (const viewport of PHONES) {
  test(`at ${viewport.width}px in the browser: no fixed element covers a link, button or form control on any page`, async ({
    page,
    allowConsoleError,
  }) => {
    allowNotFoundConsoleOn(NOT_FOUND_PATH, allowConsoleError)
    await page.setViewportSize(viewport)
    const problems: string[] = []
    for (const { path } of allPages) {
      await gotoHydrated(page, path)
      problems.push(...(await coveredControls(page)).map((problem) => `${path}: ${problem}`))
    }
    expect(problems).toEqual([])
  })

  test(`at ${viewport.width}px in the browser, offline: the offline indicator covers no link, button or form control on any page`, async ({
    page,
    allowConsoleError,
  }) => {
    allowNotFoundConsoleOn(NOT_FOUND_PATH, allowConsoleError)
    await page.setViewportSize(viewport)
    expect(
      await coveredWithPills(
        page,
        allPages.map(({ path }) => path),
        ['offline'],
      ),
    ).toEqual([])
  })

  test(`at ${viewport.width}px in the browser: a message waiting or not delivered covers no control on /contact or /`, async ({
    page,
    allowConsoleError,
  }) => {
    test.setTimeout(60_000)
    allowConsoleError(PILL_CONSOLE)
    await page.setViewportSize(viewport)
    expect(await coveredByEveryPill(page)).toEqual([])
  })

  test(`at ${viewport.width}px as the installed app (standalone, iPhone safe areas): no fixed element covers a control on any page`, async ({
    baseURL,
  }) => {
    test.setTimeout(90_000)
    const app = await openInstalledApp(baseURL ?? '', viewport)
    try {
      const problems: string[] = []
      for (const { path } of allPages) {
        await gotoHydrated(app.page, path)
        problems.push(...(await coveredControls(app.page)).map((problem) => `${path}: ${problem}`))
        problems.push(
          ...(await coveredWithPills(app.page, [path], ['offline'], { navigate: false })),
        )
      }
      // The other pills on the phone most visitors have: the form and the home page.
      if (viewport.width === PHONE.width) {
        app.allowConsoleError(PILL_CONSOLE)
        problems.push(...(await coveredByEveryPill(app.page)))
      }
      expect(problems).toEqual([])
      // The header and the quick-contact bar keep clear of the status bar and the home indicator.
      const header = await app.page.getByRole('banner').getByRole('link').first().boundingBox()
      const bar = await app.page
        .getByRole('complementary', { name: 'Quick contact', exact: true })
        .getByRole('link')
        .first()
        .boundingBox()
      expect(header && header.y >= STANDALONE_INSETS.top).toBe(true)
      expect(bar && bar.y + bar.height <= viewport.height - STANDALONE_INSETS.bottom).toBe(true)
      expect(app.problems).toEqual([])
    } finally {
      await app.close()
    }
  })
}

/** An iPhone turned sideways: the notch and the rounded corners sit left and right. */
const LANDSCAPE = { width: 844, height: 390 }
const LANDSCAPE_INSETS = { top: 0, bottom: 21, left: 47, right: 47 }

test('turned sideways, no text or control of any page sits under the notch or the rounded corners', async ({
  page,
  allowConsoleError,
}) => {
  allowNotFoundConsoleOn(NOT_FOUND_PATH, allowConsoleError)
  await page.setViewportSize(LANDSCAPE)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: LANDSCAPE_INSETS })
  const problems: string[] = []
  for (const { path } of allPages) {
    await gotoHydrated(page, path)
    const outside = await page.evaluate(({ left, right }) => {
      const safeRight = window.innerWidth - right
      const content = document.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, textarea, h1, h2, h3, p, li, dt, dd, label, code',
      )
      return (
        [...content]
          // Visible, and not clipped away (the visually hidden skip link).
          .filter(
            (element) =>
              element.checkVisibility({ visibilityProperty: true }) &&
              getComputedStyle(element).clipPath === 'none',
          )
          .map((element) => {
            // What it shows: its box less its own padding.
            const box = element.getBoundingClientRect()
            const style = getComputedStyle(element)
            const shown = {
              left: box.left + parseFloat(style.paddingLeft),
              right: box.right - parseFloat(style.paddingRight),
            }
            return { element, box, shown }
          })
          .filter(
            ({ box, shown }) =>
              box.width > 1 &&
              box.height > 1 &&
              (shown.left < left - 0.5 || shown.right > safeRight + 0.5),
          )
          .map(
            ({ element, shown }) =>
              `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30)}" at ${Math.round(shown.left)}-${Math.round(shown.right)}`,
          )
      )
    }, LANDSCAPE_INSETS)
    problems.push(...outside.map((problem) => `${path}: ${problem}`))
  }
  expect(problems).toEqual([])
})

test(`at ${DESKTOP.width}px: the outbox's status at the bottom left covers no control on /contact or /, whatever it shows`, async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(PILL_CONSOLE)
  await page.setViewportSize(DESKTOP)
  expect(await coveredByEveryPill(page)).toEqual([])
})

test('the quick-contact buttons step aside while a form field has focus, and come back after', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await openContactPage(page)
  const quickContact = page.getByRole('complementary', { name: 'Quick contact', exact: true })
  await expect(quickContact).toBeVisible()
  await contactForm(page).message.focus()
  await expect(quickContact).toBeHidden()
  await contactForm(page).name.focus()
  await expect(quickContact).toBeHidden()
  // Leaving the fields for Send Securely brings them back, clear of it.
  await contactForm(page).submit.focus()
  await expect(quickContact).toBeVisible()
  const [send, bar] = [
    await contactForm(page).submit.boundingBox(),
    await quickContact.boundingBox(),
  ]
  expect(send && bar && send.y + send.height <= bar.y).toBe(true)
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await expect(quickContact).toBeVisible()
})

test('the outbox pills sit on the quick-contact bar, step aside with it while a field has focus, and the review still opens', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(PILL_CONSOLE)
  await page.setViewportSize(PHONE)
  await queueUnanswered(page, 'Aside Pill')
  await refuseWaiting(page)
  await queueUnanswered(page, 'Second Aside Pill')
  const quickContact = page.getByRole('complementary', { name: 'Quick contact', exact: true })
  const [waiting, bar] = [await pill.waiting(page).boundingBox(), await quickContact.boundingBox()]
  expect(waiting && bar && waiting.y + waiting.height <= bar.y).toBe(true)

  await page.getByRole('button', { name: panelCopy.another }).click()
  await contactForm(page).message.focus()
  await expect(quickContact).toBeHidden()
  await expect(pill.notDelivered(page)).toBeHidden()
  // Still announced, but off the screen.
  await expect
    .poll(async () => (await pill.waiting(page).boundingBox())?.y)
    .toBeGreaterThanOrEqual(PHONE.height)

  await contactForm(page).submit.focus()
  await expect(pill.notDelivered(page)).toBeVisible()
  await expect
    .poll(async () => (await pill.waiting(page).boundingBox())?.y)
    .toBeLessThan(PHONE.height)
  await pill.notDelivered(page).click()
  await expect(page.getByRole('dialog', { name: outboxCopy.reviewTitle })).toBeVisible()
})
