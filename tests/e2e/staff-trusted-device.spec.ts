import type { BrowserContext, Page } from '@playwright/test'
import { copy } from '../../src/inbox/content/copy'
import { SESSION_STORAGE_KEY } from '../../src/inbox/lib/session-storage'
import { inboxLink } from '../../supabase/functions/_shared/staff-alert-contract'
import { totpCode } from '../../supabase/local/auth/totp'
import { axeViolations } from '../support/axe'
import { uniqueName, withE2eDatabase } from '../support/backend-db'
import { sendInquiry } from '../support/contact-form'
import { addPrfAuthenticator } from '../support/passkeys'
import { E2E_INBOX_LOCALHOST_URL } from '../support/ports'
import { PHONE } from '../support/site'
import {
  addStaff,
  devIdentity,
  enterCode,
  importKey,
  inquiryEntry,
  openInbox,
  refreshStatus,
  refreshTokenIn,
  setupKey,
  STAFF_PASSWORD,
  waitForInbox,
} from '../support/staff-inbox'
import { expect, test } from '../support/strict-page'

/**
 * The trusted device (issue 25), at 375 px against the real local backend and its Auth, with
 * Chromium's virtual authenticator (PRF): "Keep me signed in on this device" keeps the session in
 * localStorage, so a new page opened from a staff alert's link reaches the inquiry with the link
 * and the passkey; without it a new page asks to sign in; "Sign out everywhere" ends the other
 * devices' sessions at their next request; the agency's period ends a trusted session.
 */

test.use({ viewport: PHONE })

/** Signs in, ticking "Keep me signed in on this device" when `keep`. */
async function signIn(page: Page, email: string, keep: boolean): Promise<void> {
  await page.getByLabel(copy.signIn.email).fill(email)
  await page.getByLabel(copy.signIn.password).fill(STAFF_PASSWORD)
  if (keep) await page.getByLabel(copy.signIn.keepSignedIn).check()
  await page.getByRole('button', { name: copy.signIn.submit }).click()
}

/** Where this origin keeps the session: the keys of localStorage and sessionStorage. */
const storageKeys = (page: Page) =>
  page.evaluate(() => ({ device: Object.keys(localStorage), tab: Object.keys(sessionStorage) }))

/** The alert's link, as the staff-alert function writes it with INBOX_URL set. */
const alertLink = (id: string) => inboxLink(E2E_INBOX_LOCALHOST_URL, id.slice(0, 8)) ?? ''

/**
 * A page standing for the alert's message (Telegram's), its link opening in a new tab (`_blank`)
 * or in the same one (`_self`).
 */
const alertMessage = (id: string, target: '_blank' | '_self') =>
  `<title>Telegram</title><main><p>New secure inquiry ${id.slice(0, 8)}.</p>` +
  `<a href="${alertLink(id)}" target="${target}">Open the inquiry</a></main>`

/** Another phone of the same account: signed in with the code the app shows 30 s on. */
async function anotherDevice(context: BrowserContext, email: string, totpKey: string) {
  const other = await context.newPage()
  await openInbox(other, E2E_INBOX_LOCALHOST_URL)
  await signIn(other, email, true)
  // A later sign-in's code screen: its heading and its field share the name.
  await other
    .getByRole('textbox', { name: copy.code.field })
    .fill(totpCode(totpKey, Date.now() + 30_000))
  await other.getByRole('button', { name: copy.code.submit }).click()
  await importKey(other, { secret: await devIdentity() })
  await expect(other.getByRole('heading', { name: copy.list.heading })).toBeVisible()
  return other
}

test('trusted device: a new page from an alert’s link reaches the inquiry in at most three interactions; "Sign out everywhere" ends the other device’s session at its next request', async ({
  page,
  context,
  browser,
  allowConsoleError,
}) => {
  const name = uniqueName('Trusted Reader')
  const id = await sendInquiry(page, {
    name,
    contact: 'trusted@example.com',
    message: 'Read from the alert.',
  })
  const passkey = await addPrfAuthenticator(page)
  const email = await addStaff()
  await openInbox(page, E2E_INBOX_LOCALHOST_URL)
  await expect(page.getByText(copy.signIn.inAppBrowser)).toHaveCount(0)
  await expect(page.getByLabel(copy.signIn.keepSignedIn)).not.toBeChecked()
  expect(await axeViolations(page)).toEqual([])
  await signIn(page, email, true)

  // The enrolment on a phone: the app opens from the otpauth:// link, the key is copied.
  const totpKey = await setupKey(page)
  await expect(page.getByRole('link', { name: copy.code.openApp })).toHaveAttribute(
    'href',
    new RegExp(`^otpauth://totp/.*secret=${totpKey}`),
  )
  await expect(page.locator('.setup-key span')).toHaveText(totpKey.match(/.{4}/g) ?? [])
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: E2E_INBOX_LOCALHOST_URL,
  })
  await page.getByRole('button', { name: copy.code.copyKey }).click()
  await expect(page.getByRole('status')).toHaveText(copy.code.copied)
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(totpKey)
  expect(await axeViolations(page)).toEqual([])
  await enterCode(page, totpCode(totpKey))

  await importKey(page, { secret: await devIdentity() }, { passkey: true })
  await expect(inquiryEntry(page, name)).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect(await storageKeys(page)).toEqual({
    device: expect.arrayContaining([SESSION_STORAGE_KEY]),
    tab: expect.not.arrayContaining([SESSION_STORAGE_KEY]),
  })

  // "Sign out" is not "Lock": another style, another place (the account's section, below).
  const lock = page.getByRole('button', { name: copy.lock })
  const signOut = page.getByRole('button', { name: copy.signOut, exact: true })
  expect(await lock.evaluate((button) => button.closest('header') !== null)).toBe(true)
  expect(await signOut.evaluate((button) => button.closest('section.account') !== null)).toBe(true)
  const look = (button: typeof lock) =>
    button.evaluate((element) => {
      const style = getComputedStyle(element)
      return `${style.color} ${style.backgroundColor} ${style.borderColor}`
    })
  expect(await look(signOut)).not.toBe(await look(lock))
  expect(await axeViolations(page)).toEqual([])

  // Every heading a page of this device draws, from its first node on.
  await context.addInitScript(() => {
    const drawn: string[] = []
    ;(window as unknown as { drawn: string[] }).drawn = drawn
    new MutationObserver(() => {
      for (const { textContent } of document.querySelectorAll('h1'))
        if (textContent && !drawn.includes(textContent)) drawn.push(textContent)
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })
  // The alert as a person opens it: a tap on the link in the message (a page standing for
  // Telegram's) opens a new tab, which finds the device's session: the unlock screen, passkey first.
  const message = await context.newPage()
  await message.setContent(alertMessage(id, '_blank'))
  const [newTab] = await Promise.all([
    context.waitForEvent('page'),
    message.getByRole('link', { name: 'Open the inquiry' }).click(),
  ])
  await waitForInbox(newTab)
  await expect(newTab.getByRole('heading', { name: copy.key.unlockHeading })).toBeVisible()
  await expect(newTab.getByRole('button', { name: copy.key.passkeyUnlock })).toBeVisible()
  await expect(newTab.getByRole('heading', { name: copy.signIn.heading })).toHaveCount(0)
  // Nothing else was drawn before it: no sign-in form flashed on the way.
  expect(await newTab.evaluate(() => (window as unknown as { drawn: string[] }).drawn)).toEqual([
    copy.key.unlockHeading,
  ])
  await message.close()

  // Chromium's virtual authenticator belongs to one tab (CDP's WebAuthn domain is per target),
  // and the new tab's own cannot be given the passkey whole: WebAuthn.getCredentials and
  // addCredential carry the credential's id, private key, user and counter, but not its PRF
  // (hmac-secret) keys, which Chromium draws at random when the credential is made and never
  // exports. The copy signs, and its PRF gives nothing: the passkey's age file cannot open there,
  // and the inbox says so in a sentence, the passphrase still offered (as on a phone whose passkey
  // has no PRF).
  allowConsoleError(/inbox: passkey unlock failed/)
  const newTabAuthenticator = await addPrfAuthenticator(newTab)
  const { credentials } = await passkey.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: passkey.authenticatorId,
  })
  expect(credentials).toHaveLength(1)
  await newTabAuthenticator.cdp.send('WebAuthn.addCredential', {
    authenticatorId: newTabAuthenticator.authenticatorId,
    credential: credentials[0]!,
  })
  await newTab.getByRole('button', { name: copy.key.passkeyUnlock }).click()
  await expect(newTab.getByRole('alert')).toHaveText(copy.key.passkeyFailed)
  await expect(newTab.getByText(copy.key.usePassphrase)).toBeVisible()

  // So the count runs in the tab that made the passkey, made what a new tab is to the inbox: its
  // sessionStorage cleared (the device's localStorage and IndexedDB stay), the inbox left for the
  // message, and the link tapped there opens a new document (nothing in memory). Every click,
  // tap and key press from the message on counts.
  await page.evaluate(() => sessionStorage.clear())
  await page.goto('about:blank')
  await page.setContent(alertMessage(id, '_self'))
  let interactions = 0
  await page.getByRole('link', { name: 'Open the inquiry' }).click()
  interactions += 1 // the link
  await page.getByRole('button', { name: copy.key.passkeyUnlock }).click()
  interactions += 1 // the passkey
  const inquiryHeading = page.getByRole('heading', { name })
  await expect(inquiryHeading.or(inquiryEntry(page, name))).toBeVisible()
  if (!(await inquiryHeading.isVisible())) {
    await inquiryEntry(page, name).click()
    interactions += 1 // the inquiry
  }
  await expect(page.getByText('Read from the alert.')).toBeVisible()
  test.info().annotations.push({
    type: 'interactions from the alert link to the inquiry',
    description: String(interactions),
  })
  console.log(`interactions from the alert link to the inquiry: ${interactions}`)
  expect(interactions).toBeLessThanOrEqual(3)
  expect(page.url()).toBe(alertLink(id))

  // Another phone of the same account, then "Sign out everywhere" here.
  const otherContext = await browser.newContext({ viewport: PHONE })
  try {
    const other = await anotherDevice(otherContext, email, totpKey)
    const otherRefresh = refreshTokenIn(
      await other.evaluate(() => JSON.stringify({ ...localStorage })),
    )
    expect(otherRefresh).toBeTruthy()
    await page.getByRole('button', { name: copy.account.signOutEverywhere }).click()
    await expect(page.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
    // The other tab on this device shares the storage: it is signed out at once.
    await expect(newTab.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()

    // The other phone still shows its list; its next request finds the session ended.
    await expect(other.getByRole('heading', { name: copy.list.heading })).toBeVisible()
    await other.getByRole('button', { name: copy.list.refresh }).click()
    await expect(other.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
    await expect(other.getByText(copy.signIn.sessionEnded)).toBeVisible()
    await expect(other.getByText(name)).toHaveCount(0)
    expect(await other.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(
      'refresh_token',
    )
    expect(await refreshStatus(otherRefresh)).toBe(400)
  } finally {
    await otherContext.close()
  }
})

test('without "Keep me signed in" the session stays in the tab: a new page from the alert asks to sign in', async ({
  page,
  context,
  allowConsoleError,
}) => {
  // Auth's refusal of the same password, logged as the inbox logs refusals (raw text to console).
  allowConsoleError(/inbox: password change failed|status of 422/)
  const name = uniqueName('Tab Reader')
  const id = await sendInquiry(page, { name, contact: 'tab@example.com', message: 'Tab only.' })
  const email = await addStaff()
  await openInbox(page, E2E_INBOX_LOCALHOST_URL)
  await signIn(page, email, false)
  await enterCode(page, totpCode(await setupKey(page)))
  await importKey(page, { secret: await devIdentity() })
  await expect(inquiryEntry(page, name)).toBeVisible()
  expect(await storageKeys(page)).toEqual({
    device: expect.not.arrayContaining([SESSION_STORAGE_KEY]),
    tab: expect.arrayContaining([SESSION_STORAGE_KEY]),
  })

  const fromAlert = await context.newPage()
  await openInbox(fromAlert, alertLink(id))
  await expect(fromAlert.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
  await expect(fromAlert.getByText(copy.signIn.sessionEnded)).toHaveCount(0)
  // The first tab is still signed in.
  await page.getByRole('button', { name: copy.list.refresh }).click()
  await expect(inquiryEntry(page, name)).toBeVisible()

  // A password change there (at aal2): Auth's rules are said in sentences, then it is changed.
  await page.locator('summary', { hasText: copy.account.passwordHeading }).click()
  const newPassword = 'a new password for the e2e run'
  const change = async (password: string, repeat = password) => {
    await page.getByLabel(copy.account.newPassword, { exact: true }).fill(password)
    await page.getByLabel(copy.account.repeatPassword).fill(repeat)
    await page.getByRole('button', { name: copy.account.changePassword }).click()
  }
  await change('€'.repeat(25))
  await expect(page.getByRole('alert')).toHaveText(copy.account.tooLong)
  await change(STAFF_PASSWORD)
  await expect(page.getByRole('alert')).toHaveText(copy.account.same)
  await change(newPassword)
  await expect(page.getByText(copy.account.changed)).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  // The new page signs in with the new password: it asks for the code next.
  await fromAlert.getByLabel(copy.signIn.email).fill(email)
  await fromAlert.getByLabel(copy.signIn.password).fill(newPassword)
  await fromAlert.getByRole('button', { name: copy.signIn.submit }).click()
  await expect(fromAlert.getByRole('textbox', { name: copy.code.field })).toBeVisible()
})

/**
 * The account's sign-in, moved `days` into the past where Auth keeps it (the password entry of
 * `auth.mfa_amr_claims`, which every refreshed token's `amr` carries), in the e2e backend.
 */
async function signedInDaysAgo(email: string, days: number): Promise<void> {
  const { rowCount } = await withE2eDatabase((client) =>
    client.query(
      `update auth.mfa_amr_claims as c set created_at = now() - make_interval(days => $2)
         from auth.sessions as s join auth.users as u on u.id = s.user_id
        where c.session_id = s.id and c.authentication_method = 'password' and u.email = $1`,
      [email, days],
    ),
  )
  expect(rowCount).toBe(1)
}

/** The kept session's access token taken as expired, as an hour later: the next page refreshes. */
const expireAccessToken = (page: Page) =>
  page.evaluate((key) => {
    const session = JSON.parse(localStorage.getItem(key) ?? '{}') as { expires_at?: number }
    session.expires_at = Math.floor(Date.now() / 1000) - 60
    localStorage.setItem(key, JSON.stringify(session))
  }, SESSION_STORAGE_KEY)

test('a trusted session ends after the agency’s period (30 days): the inbox signs out and says why', async ({
  page,
  context,
}) => {
  const email = await addStaff()
  await openInbox(page, E2E_INBOX_LOCALHOST_URL)
  await signIn(page, email, true)
  await enterCode(page, totpCode(await setupKey(page)))
  await expect(page.getByRole('heading', { name: copy.key.importHeading })).toBeVisible()

  // 29 days on, a new page still finds the session (refreshed, the sign-in's time kept).
  await signedInDaysAgo(email, 29)
  await expireAccessToken(page)
  const later = await context.newPage()
  await openInbox(later, E2E_INBOX_LOCALHOST_URL)
  await expect(later.getByRole('heading', { name: copy.key.importHeading })).toBeVisible()
  await later.close()

  // Past 30 days: signed out here and on the server, and told why.
  await signedInDaysAgo(email, 31)
  await expireAccessToken(page)
  const refreshToken = await page.evaluate(
    (key) =>
      (JSON.parse(localStorage.getItem(key) ?? '{}') as { refresh_token?: string }).refresh_token,
    SESSION_STORAGE_KEY,
  )
  const monthLater = await context.newPage()
  await openInbox(monthLater, E2E_INBOX_LOCALHOST_URL)
  await expect(monthLater.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
  await expect(monthLater.getByText(copy.signIn.periodEnded(30))).toBeVisible()
  expect(await storageKeys(monthLater)).toEqual({
    device: expect.not.arrayContaining([SESSION_STORAGE_KEY]),
    tab: expect.not.arrayContaining([SESSION_STORAGE_KEY]),
  })
  // The first tab, back in front, finds it ended too.
  await page.bringToFront()
  await page.evaluate(() => window.dispatchEvent(new Event('focus')))
  await expect(page.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
  expect(await refreshStatus(refreshToken)).toBe(400)
})

test('an in-app browser (an iOS web view, as Telegram opens links) is told to open the inbox or the system browser', async ({
  browser,
}) => {
  const inApp = await browser.newContext({
    viewport: PHONE,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Telegram-iOS',
  })
  try {
    const page = await inApp.newPage()
    await openInbox(page, `${E2E_INBOX_LOCALHOST_URL}/inquiries/1a2b3c4d`)
    await expect(page.getByText(copy.signIn.inAppBrowser)).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
  } finally {
    await inApp.close()
  }
})
