import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { Encrypter } from 'age-encryption'
import { ENV_DEFAULTS } from '../../src/lib/env'
import { copy } from '../../src/inbox/content/copy'
import { totpCode } from '../../supabase/local/auth/totp'
import { DEMO_JWT_SECRET, signApiKeys } from '../../supabase/local/gateway'
import { axeViolations } from '../support/axe'
import { insertRowSealedToAnotherKey, submissionsWithId, uniqueName } from '../support/backend-db'
import { markedValues, sendInquiry } from '../support/contact-form'
import { addPrfAuthenticator } from '../support/passkeys'
import { coveredControls } from '../support/fixed-layers'
import { installabilityErrors } from '../support/install'
import { startNginx } from '../support/nginx'
import { sum, weighPage } from '../support/page-weight'
import {
  goOffline,
  goOnline,
  indexedDbContents,
  keptByPage,
  waitForOfflineReady,
  webStorageContents,
} from '../support/offline'
import {
  E2E_API_URL,
  E2E_INBOX_BUILD_DIR,
  E2E_INBOX_LOCALHOST_URL,
  E2E_INBOX_PORT,
  E2E_INBOX_URL,
} from '../support/ports'
import { allPages, DESKTOP, PHONE, PHONES, sidewaysOverflow } from '../support/site'
import {
  addStaff,
  DEVICE_PASSPHRASE,
  devIdentity,
  enterCode,
  firstVisit,
  importKey,
  inquiryEntry,
  openInbox,
  refreshStatus,
  refreshTokenIn,
  removeStaff,
  setupKey,
  signIn,
  STAFF_PASSWORD,
  unlock,
  wrongCode,
} from '../support/staff-inbox'
import { expect, test } from '../support/strict-page'

/**
 * The staff inbox in Chromium against the real local backend and its Auth: a message sent from the
 * public form moments before is read and marked by a staff member who signs in, enrols TOTP, and
 * unlocks the development identity on this device under a passphrase.
 */

const [SMALL_PHONE] = PHONES
const CONSOLE_OF_FAILED_ATTEMPTS = /inbox: (verification|sign-in) failed|status of 4\d\d/

test.describe('at 375 px, by touch', () => {
  test.use({ viewport: PHONE, hasTouch: true })

  test('pulling the list down refreshes it: an inquiry sent meanwhile appears', async ({
    page,
    context,
  }) => {
    await firstVisit(page)
    // The browser's own pull-to-refresh (a reload, which locks) is off.
    expect(
      await page.evaluate(() => getComputedStyle(document.documentElement).overscrollBehaviorY),
    ).toBe('contain')
    const name = uniqueName('Pulled In')
    const site = await context.newPage()
    await sendInquiry(site, { name, contact: 'pull@example.com', message: 'Pulled in.' })
    await site.close()
    await expect(inquiryEntry(page, name)).toHaveCount(0)

    const cdp = await context.newCDPSession(page)
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x: 180, y }],
      })
    await touch('touchStart', 150)
    await touch('touchMove', 200)
    await touch('touchMove', 260)
    await expect(page.getByText(copy.list.release)).toBeVisible()
    await touch('touchEnd', 260)
    await expect(inquiryEntry(page, name)).toBeVisible()
    await expect(page.getByText(copy.list.release)).toHaveCount(0)
  })
})

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport })

    test('staff sign in, enrol, unlock the key on the device, read the message just sent and mark it', async ({
      page,
      allowConsoleError,
    }) => {
      // The inbox writes failed attempts to the console (the page shows a sentence).
      allowConsoleError(CONSOLE_OF_FAILED_ATTEMPTS)
      const name = uniqueName('Phone Reader')
      const id = await sendInquiry(page, {
        name,
        contact: 'reader@example.com',
        message: 'Read me on a phone.',
      })

      const email = await addStaff()
      await openInbox(page)
      await signIn(page, email, 'not the password')
      await expect(page.getByRole('alert')).toHaveText(copy.signIn.failed)
      await signIn(page, email)

      // Enrolment: the QR code is drawn on the page, and the setup key is there as text.
      const key = await setupKey(page)
      const qr = page.getByRole('img', { name: copy.code.qrLabel })
      await expect(qr).toBeVisible()
      // Drawn, not a broken image showing its alt text: the browser decoded the SVG.
      await expect
        .poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
        .toBeGreaterThan(0)
      await enterCode(page, wrongCode(key))
      await expect(page.getByRole('alert')).toHaveText(copy.code.wrong)
      await enterCode(page, totpCode(key))

      await importKey(page, { secret: await devIdentity() })
      await inquiryEntry(page, name).click()
      await expect(page.getByRole('heading', { name })).toBeVisible()
      await expect(page.getByRole('link', { name: 'reader@example.com' })).toHaveAttribute(
        'href',
        'mailto:reader@example.com',
      )
      await expect(page.getByText('Read me on a phone.')).toBeVisible()
      await page.getByRole('button', { name: copy.statuses.responded }).click()
      await expect(page.getByTestId('status')).toHaveText(copy.statuses.responded)
      const [row] = await submissionsWithId(id)
      expect(row?.status).toBe('responded')
      expect(row?.responded_at).not.toBeNull()

      // A reload locks: the key and what it opened are gone; a wrong passphrase is told so.
      await page.reload()
      await unlock(page, 'not the passphrase')
      await expect(page.getByRole('alert')).toHaveText(copy.key.wrongPassphrase)
      await expect(page.getByText('Read me on a phone.')).toHaveCount(0)
      // Unlocked, the address still says where staff were: the inquiry, then the list.
      await unlock(page)
      await expect(page.getByText('Read me on a phone.')).toBeVisible()
      await page.getByRole('button', { name: copy.detail.back }).click()
      await expect(inquiryEntry(page, name)).toBeVisible()

      // Taken off the staff list (the account kept), the same session reads nothing and is told why.
      const { serviceRoleKey } = await signApiKeys(DEMO_JWT_SECRET)
      const offTheList = await fetch(`${E2E_API_URL}/rest/v1/rpc/remove_staff_member`, {
        method: 'POST',
        headers: {
          apikey: serviceRoleKey,
          authorization: `Bearer ${serviceRoleKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email }),
      })
      expect(offTheList.status).toBe(200)
      await page.getByRole('button', { name: copy.list.refresh }).click()
      await expect(page.getByRole('alert')).toHaveText(copy.list.noAccess)
      await expect(inquiryEntry(page, name)).toHaveCount(0)
      // `npm run staff -- remove` deletes the account too, and its sessions with it: signed out.
      await removeStaff(email)
      await page.getByRole('button', { name: copy.list.refresh }).click()
      await expect(page.getByText(copy.signIn.sessionEnded)).toBeVisible()
    })
  })
}

for (const viewport of [SMALL_PHONE, PHONE, DESKTOP]) {
  test(`every screen of the inbox passes axe, fits the window and no fixed layer covers a control at ${viewport.width} px`, async ({
    page,
  }) => {
    // Every screen, each checked by axe and by scrolling each control into view: with the inbox's
    // triage, account and device controls and the suite's rows, more than the default 30 s on a
    // busy two-core machine.
    test.setTimeout(60_000)
    await page.setViewportSize(viewport)
    const name = uniqueName('Axe Reader')
    await sendInquiry(page, { name, contact: '@axe_reader', message: 'Checked by axe.' })
    const other = await insertRowSealedToAnotherKey()
    const screens: Record<string, string[]> = {}
    const check = async (screen: string) => {
      screens[screen] = [
        ...(await axeViolations(page)),
        ...(await coveredControls(page)),
        ...(await sidewaysOverflow(page, screen)),
      ]
    }

    const email = await addStaff()
    await openInbox(page)
    await expect(page.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
    await check('sign in')
    await signIn(page, email)
    const key = await setupKey(page)
    await check('enrol')
    await enterCode(page, totpCode(key))
    await expect(page.getByRole('heading', { name: copy.key.importHeading })).toBeVisible()
    await check('import the key')
    await importKey(page, { secret: await devIdentity() })
    await expect(inquiryEntry(page, name)).toBeVisible()
    // A row this device holds no key for says so, with its key_id, instead of failing the list.
    await expect(page.getByText(copy.list.otherKey(other.keyId))).toHaveCount(1)
    await check('the list')
    await inquiryEntry(page, name).click()
    await expect(page.getByRole('link', { name: '@axe_reader' })).toHaveAttribute(
      'href',
      'https://t.me/axe_reader',
    )
    await check('one inquiry')
    await page.getByRole('button', { name: copy.lock }).click()
    await expect(page.getByText('Checked by axe.')).toHaveCount(0)
    await check('unlock')
    expect(screens).toEqual({
      'sign in': [],
      enrol: [],
      'import the key': [],
      'the list': [],
      'one inquiry': [],
      unlock: [],
    })
  })
}

/** Presses Tab (or Shift+Tab) until `target` has the focus: it fails if it is never reached. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  // The list holds every test's rows by now: generous, and still a failure if never reached.
  for (let presses = 0; presses < 400; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return
    await page.keyboard.press(key)
  }
  await expect(target).toBeFocused()
}

test('by keyboard alone: sign in, enrol, unlock, read and mark an inquiry; each new screen starts at its heading, and the list at the row just read', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP)
  const name = uniqueName('Keyboard Reader')
  await sendInquiry(page, { name, contact: 'keys@example.com', message: 'Read by keyboard.' })
  const email = await addStaff()

  await openInbox(page)
  await tabTo(page, page.getByLabel(copy.signIn.email))
  await page.keyboard.type(email)
  await tabTo(page, page.getByLabel(copy.signIn.password))
  await page.keyboard.type(STAFF_PASSWORD)
  await page.keyboard.press('Enter')

  await expect(page.getByRole('heading', { name: copy.code.enrolHeading })).toBeFocused()
  const key = (await page.locator('.setup-key').textContent()) ?? ''
  await tabTo(page, page.getByLabel(copy.code.field))
  await page.keyboard.type(totpCode(key))
  await page.keyboard.press('Enter')

  await expect(page.getByRole('heading', { name: copy.key.importHeading })).toBeFocused()
  await tabTo(page, page.getByLabel(copy.key.secret))
  await page.keyboard.insertText(await devIdentity())
  await tabTo(page, page.getByLabel(copy.key.passphrase, { exact: true }))
  await page.keyboard.type(DEVICE_PASSPHRASE)
  await tabTo(page, page.getByLabel(copy.key.repeat))
  await page.keyboard.type(DEVICE_PASSPHRASE)
  await page.keyboard.press('Enter')

  await expect(page.getByRole('heading', { name: copy.list.heading })).toBeFocused()
  await tabTo(page, inquiryEntry(page, name))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name })).toBeFocused()
  await tabTo(page, page.getByRole('button', { name: copy.statuses.responded }))
  await page.keyboard.press('Space')
  await expect(page.getByTestId('status')).toHaveText(copy.statuses.responded)
  await tabTo(page, page.getByRole('button', { name: copy.detail.back }), 'Shift+Tab')
  await page.keyboard.press('Enter')
  await expect(inquiryEntry(page, name)).toBeFocused()
})

test('locks by itself after 10 minutes unused and after 5 minutes in the background; Sign out ends the session', async ({
  page,
}) => {
  const name = uniqueName('Idle Reader')
  await sendInquiry(page, { name, contact: 'idle@example.com', message: 'Locked when idle.' })
  await page.clock.install()
  await firstVisit(page)
  await inquiryEntry(page, name).click()
  await expect(page.getByText('Locked when idle.')).toBeVisible()

  await page.clock.fastForward('09:00')
  await expect(page.getByText('Locked when idle.')).toBeVisible()
  await page.clock.fastForward('01:01')
  await expect(page.getByRole('heading', { name: copy.key.unlockHeading })).toBeVisible()
  await expect(page.getByText('Locked when idle.')).toHaveCount(0)

  // Unlocked again, the address still says where staff were: the inquiry.
  await unlock(page)
  await expect(page.getByText('Locked when idle.')).toBeVisible()
  await page.getByRole('button', { name: copy.detail.back }).click()
  await expect(inquiryEntry(page, name)).toBeVisible()
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
  })
  await page.clock.fastForward('05:01')
  await expect(page.getByRole('heading', { name: copy.key.unlockHeading })).toBeVisible()
  await expect(inquiryEntry(page, name)).toHaveCount(0)

  // Sign out: the session leaves this tab's storage, and its refresh token is dead on the server.
  const session = await webStorageContents(page)
  const refreshToken = refreshTokenIn(session)
  expect(refreshToken).toBeTruthy()
  await page.getByRole('button', { name: copy.signOut, exact: true }).click()
  await expect(page.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
  await expect(page.getByRole('banner')).toHaveText(copy.title(ENV_DEFAULTS.VITE_AGENCY_NAME))
  expect(await webStorageContents(page)).not.toContain('refresh_token')
  expect(await indexedDbContents(page)).not.toContain('"rows"')
  expect(await refreshStatus(refreshToken)).toBe(400)
})

test('a passkey with PRF (Chromium’s virtual authenticator) unlocks the key on this device', async ({
  page,
}) => {
  const name = uniqueName('Passkey Reader')
  await sendInquiry(page, { name, contact: 'passkey@example.com', message: 'Opened by touch.' })
  const { cdp, authenticatorId } = await addPrfAuthenticator(page)

  const email = await addStaff()
  await openInbox(page, E2E_INBOX_LOCALHOST_URL)
  await signIn(page, email)
  await enterCode(page, totpCode(await setupKey(page)))
  await importKey(page, { secret: await devIdentity() }, { passkey: true })
  await expect(inquiryEntry(page, name)).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(credentials).toHaveLength(1)
  // The passkey's copy of the key is an age file to the credential, never the key itself.
  const stored = await indexedDbContents(page)
  expect(stored).toContain('age-encryption.org/fido2prf')
  expect(stored).not.toContain((await devIdentity()).trim().split('\n').at(-1))

  await page.reload()
  await page.getByRole('button', { name: copy.key.passkeyUnlock }).click()
  await inquiryEntry(page, name).click()
  await expect(page.getByText('Opened by touch.')).toBeVisible()
})

test('the first screen loads at most 140 KB gzip of JavaScript', async ({ page }) => {
  const weights = await weighPage(page, `${E2E_INBOX_URL}/`, resolve(E2E_INBOX_BUILD_DIR))
  const detail = weights.map((weight) => `${weight.path} ${weight.gzip}`).join('\n')
  expect(sum(weights, 'js', 'gzip'), `JavaScript gzip bytes:\n${detail}`).toBeLessThanOrEqual(
    140 * 1024,
  )
  // The key's code (age) and the rows' opening load after sign-in, never on this screen.
  expect(weights.map((weight) => weight.path).join(' ')).not.toMatch(/key-gate|unlocked-app/)
  for (const weight of weights.filter((file) => file.path.endsWith('.js')))
    expect(await readFile(join(resolve(E2E_INBOX_BUILD_DIR), weight.path), 'utf8')).not.toContain(
      'age-encryption.org/v1',
    )
})

test('the inbox is served with its own headers; no public page, the sitemap or the site’s service worker names it', async ({
  request,
}) => {
  const answer = await request.get(`${E2E_INBOX_URL}/`)
  const headers = answer.headers()
  expect(headers['content-security-policy']).toContain(`connect-src 'self' ${E2E_API_URL}`)
  expect(headers['content-security-policy']).toContain("script-src 'self';")
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(headers['x-robots-tag']).toBe('noindex, nofollow')
  const page = await answer.text()
  expect(page).toContain('<meta name="robots" content="noindex, nofollow" />')
  expect((await request.get(`${E2E_INBOX_URL}/no-such-page`)).status()).toBe(404)
  // The app's own addresses (an alert's link, a QR code's) answer with the app, as on nginx.
  const nginx = await startNginx(resolve(E2E_INBOX_BUILD_DIR))
  try {
    for (const origin of [E2E_INBOX_URL, nginx.origin]) {
      for (const path of ['/inquiries/1a2b3c4d', '/devices/add/one-two-three-four-five']) {
        const routed = await request.get(`${origin}${path}`)
        expect(routed.status(), `${origin}${path}`).toBe(200)
        expect(await routed.text()).toBe(page)
        expect(routed.headers()['content-security-policy']).toBe(headers['content-security-policy'])
        expect(routed.headers()['cache-control']).toBe('no-cache')
      }
      expect((await request.get(`${origin}/no-such-page`)).status()).toBe(404)
      expect((await request.get(`${origin}/_redirects`)).status()).toBe(404)
    }
  } finally {
    await nginx.stop()
  }

  const publicText = await Promise.all(
    [...allPages.map(({ path }) => path), '/sitemap.xml', '/robots.txt', '/sw.js'].map(
      async (path) => (await request.get(path)).text(),
    ),
  )
  for (const text of publicText) {
    expect(text).not.toContain(String(E2E_INBOX_PORT))
    expect(text).not.toMatch(/inbox/i)
  }
})

test.describe('with the inbox’s service worker', () => {
  test.use({ serviceWorkers: 'allow' })

  test('Chromium can install it as "<agency> Inbox", and its shell is precached', async ({
    request,
  }) => {
    expect(await installabilityErrors(`${E2E_INBOX_URL}/`)).toEqual([])
    const manifest = (await (
      await request.get(`${E2E_INBOX_URL}/manifest.webmanifest`)
    ).json()) as { name: string; start_url: string; display: string }
    expect(manifest).toMatchObject({
      name: copy.title(ENV_DEFAULTS.VITE_AGENCY_NAME),
      start_url: '/',
      display: 'standalone',
    })
  })

  test('an alert’s link opens its inquiry; a key file from age -p imports; what a visitor typed reaches no request, storage or cache of the inbox', async ({
    page,
    context,
  }) => {
    const { marker, values } = markedValues('Inbox sweep')
    const id = await sendInquiry(page, values)
    const identity = (await devIdentity()).trim().split('\n').at(-1) ?? ''
    expect(identity).toMatch(/^AGE-SECRET-KEY-1/)

    // Everything the inbox origin sends from here on, the service worker's requests included.
    const sent: string[] = []
    context.on('request', (request) =>
      sent.push(`${request.method()} ${request.url()}\n${request.postData() ?? ''}`),
    )

    // The key file as `age -p` writes it (age's own scrypt factor), with its own passphrase.
    const encrypter = new Encrypter()
    encrypter.setPassphrase('the key file passphrase')
    const keyFile = Buffer.from(await encrypter.encrypt(await devIdentity()))

    const email = await addStaff()
    const ref = id.slice(0, 8)
    await openInbox(page, `${E2E_INBOX_URL}/inquiries/${ref}`)
    await signIn(page, email)
    await enterCode(page, totpCode(await setupKey(page)))
    await importKey(page, { file: keyFile, filePassphrase: 'not the file passphrase' })
    await expect(page.getByRole('alert')).toHaveText(copy.key.fileLocked)
    await importKey(page, { file: keyFile, filePassphrase: 'the key file passphrase' })

    // The linked inquiry is open, at the address the alert linked to.
    await expect(page.getByRole('heading', { name: values.name })).toBeVisible()
    await expect(page.getByText(marker).first()).toBeVisible()
    expect(page.url()).toBe(`${E2E_INBOX_URL}/inquiries/${ref}`)
    await waitForOfflineReady(page)

    const kept = { requests: sent.join('\n'), ...(await keptByPage(page)) }
    for (const [where, text] of Object.entries(kept)) {
      expect(text, `${where} holds the visitor's words`).not.toContain(marker)
      expect(text, `${where} holds the key`).not.toContain(identity)
    }
    // The key is there, as an age file to the device passphrase.
    expect(kept.indexedDb).toContain('age-encryption.org/v1')
    expect(kept.indexedDb).toMatch(/-> scrypt \S+ 16/)
    expect(kept.caches).toContain('/index.html')
    expect(kept.requests).toContain('/auth/v1/token?grant_type=password')
    expect(kept.requests).toContain('/rest/v1/contact_submissions')
  })

  test('offline, the shell opens, the last list is read after unlocking, and a status change is refused with a sentence', async ({
    page,
    context,
    allowConsoleError,
  }) => {
    const name = uniqueName('Offline Reader')
    await sendInquiry(page, { name, contact: 'offline@example.com', message: 'Read offline.' })
    await firstVisit(page)
    await expect(inquiryEntry(page, name)).toBeVisible()
    await waitForOfflineReady(page)

    allowConsoleError(/ERR_INTERNET_DISCONNECTED|Failed to fetch|inbox: .* failed/)
    await goOffline(context)
    await page.reload()
    await unlock(page)
    await expect(page.getByRole('status')).toContainText('Offline: this is the list as it was at')
    await inquiryEntry(page, name).click()
    await expect(page.getByText('Read offline.')).toBeVisible()
    await page.getByRole('button', { name: copy.statuses.engaged }).click()
    await expect(page.getByRole('alert')).toHaveText(copy.detail.statusOffline)
    await expect(page.getByTestId('status')).toHaveText(copy.statuses.new)
    await goOnline(context)
  })
})
