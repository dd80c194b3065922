import type { BrowserContext, Page } from '@playwright/test'
import { generateX25519Identity } from 'age-encryption'
import { copy } from '../../src/inbox/content/copy'
import { sealKeySet } from '../../src/inbox/features/devices/device-link'
import { totpCode } from '../../supabase/local/auth/totp'
import { axeViolations } from '../support/axe'
import { uniqueName } from '../support/backend-db'
import { markedValues, sendInquiry } from '../support/contact-form'
import { indexedDbContents, webStorageContents } from '../support/offline'
import { addPrfAuthenticator } from '../support/passkeys'
import { E2E_INBOX_LOCALHOST_URL, E2E_INBOX_URL } from '../support/ports'
import { PHONE } from '../support/site'
import {
  addStaff,
  DEVICE_PASSPHRASE,
  devIdentity,
  enterCode,
  firstVisit,
  importKey,
  inquiryEntry,
  openInbox,
  setupKey,
  signIn,
  unlock,
} from '../support/staff-inbox'
import { REFUSED } from '../support/strict-page'
import { expect, test } from '../support/strict-page'

/**
 * Issue 25's devices at 375 px: a second browser (its own context: its own storage, as a new
 * phone) linked by its code from an unlocked one, a key set swapped on the way refused by the
 * comparison code; the passkey first (Chromium's virtual authenticator with PRF); "Forgot your
 * passphrase?". The key never leaves a device but as age ciphertext, nor sits in storage but
 * encrypted.
 */

test.use({ viewport: PHONE, hasTouch: true })

/** The last identity of the development key set: what must appear in no request or storage. */
async function secretLine(): Promise<string> {
  const identity = (await devIdentity()).trim().split('\n').at(-1) ?? ''
  expect(identity).toMatch(/^AGE-SECRET-KEY-1/)
  return identity
}

/** A context the strict harness does not watch: its CSP violations and page errors, recorded. */
async function watchedContext(context: BrowserContext, problems: string[]) {
  await context.exposeBinding('__reportCsp', (_source, text: string) => problems.push(text))
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) => {
      const send = (window as unknown as Record<string, (text: string) => void>).__reportCsp
      void send?.(`CSP: ${event.effectiveDirective} ${event.blockedURI}`)
    }),
  )
  context.on('page', (page) => {
    page.on('console', (message) => {
      if (REFUSED.test(message.text()) || message.type() === 'error')
        problems.push(`console: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
  })
}

const linkCode = async (page: Page) =>
  ((await page.getByTestId('link-code').textContent()) ?? '').replace(`${copy.devices.code}: `, '')
const comparison = async (page: Page) =>
  (await page.getByTestId('comparison-code').textContent()) ?? ''

/** On the unlocked device: "Add a device", the code typed, sent; the comparison it shows. */
async function addDevice(page: Page, code: string): Promise<string> {
  await page.getByRole('link', { name: copy.devices.add }).click()
  await expect(page.getByRole('heading', { name: copy.devices.addHeading })).toBeFocused()
  await page.getByLabel(copy.devices.code).fill(code)
  await page.getByRole('button', { name: copy.devices.addSubmit }).click()
  await expect(page.getByRole('heading', { name: copy.devices.compareHeading })).toBeVisible()
  return comparison(page)
}

test('a second browser is linked by its code: a swapped key set shows another comparison code and is refused; the matching one is kept under its own passphrase', async ({
  page,
  browser,
}) => {
  const { marker, values } = markedValues('Linked device')
  await sendInquiry(page, values)
  const identity = await secretLine()

  // Everything both devices send, bodies included.
  const sent: string[] = []
  const record = (context: BrowserContext) =>
    context.on('request', (request) =>
      sent.push(`${request.method()} ${request.url()}\n${request.postData() ?? ''}`),
    )
  record(page.context())
  const { email, totpKey } = await firstVisit(page)
  await expect(inquiryEntry(page, values.name)).toBeVisible()

  // The new phone: its own browser context, signed in at aal2, no key.
  const problems: string[] = []
  const phone = await browser.newContext({ viewport: PHONE, hasTouch: true })
  await watchedContext(phone, problems)
  record(phone)
  const newDevice = await phone.newPage()
  await openInbox(newDevice)
  await signIn(newDevice, email)
  // The second factor (enrolled on the first device): the form and its field share the name.
  // Auth takes each 30-second step's code once, and the enrolment may have used this one: the
  // next step's code (within the one step of skew Auth allows).
  await newDevice
    .getByRole('textbox', { name: copy.code.field })
    .fill(totpCode(totpKey, Date.now() + 30_000))
  await newDevice.getByRole('button', { name: copy.code.submit }).click()
  await expect(newDevice.getByRole('heading', { name: copy.key.importHeading })).toBeVisible()

  // The server's view, played by the test: the one-time recipient the new device opened the link
  // with, and a key set of the server's own sealed to it in place of the one sent.
  let recipient = ''
  await phone.route('**/rest/v1/rpc/device_link_open', async (route) => {
    recipient = (route.request().postDataJSON() as { recipient: string }).recipient
    await route.continue()
  })
  await phone.route('**/rest/v1/rpc/device_link_take', async (route) => {
    const answer = await route.fetch()
    const body = (await answer.json()) as { state: string; sealed?: string }
    if (body.state !== 'sealed') return route.fulfill({ response: answer })
    const swapped = await sealKeySet([await generateX25519Identity()], recipient)
    await route.fulfill({ response: answer, json: { state: 'sealed', sealed: swapped.sealed } })
  })

  await newDevice.getByRole('button', { name: copy.devices.link }).click()
  await expect(newDevice.getByRole('heading', { name: copy.devices.linkHeading })).toBeVisible()
  const firstCode = await linkCode(newDevice)
  expect(firstCode).toMatch(/^[a-z]+( [a-z]+){4}$/)
  await expect(newDevice.getByRole('img', { name: copy.devices.qrLabel(firstCode) })).toBeVisible()
  expect(await axeViolations(newDevice)).toEqual([])

  // Typed in capitals with dashes: the same code.
  const shown = await addDevice(page, firstCode.toUpperCase().replaceAll(' ', '-'))
  await expect(newDevice.getByRole('heading', { name: copy.devices.compareHeading })).toBeVisible()
  expect(await comparison(newDevice)).not.toBe(shown)
  await newDevice.getByRole('button', { name: copy.devices.differ }).click()
  await expect(newDevice.getByRole('alert')).toHaveText(copy.devices.refused)
  // Nothing was saved on the new phone.
  expect(await indexedDbContents(newDevice)).not.toContain('age-encryption.org')

  // Again, with nothing in between: the same comparison code on both screens.
  await phone.unrouteAll()
  await page.getByRole('button', { name: copy.devices.done }).click()
  await newDevice.getByRole('button', { name: copy.devices.again }).click()
  const secondCode = await linkCode(newDevice)
  expect(secondCode).not.toBe(firstCode)
  // A used code is refused.
  await page.getByRole('link', { name: copy.devices.add }).click()
  await page.getByLabel(copy.devices.code).fill(firstCode)
  await page.getByRole('button', { name: copy.devices.addSubmit }).click()
  await expect(page.getByRole('alert')).toHaveText(copy.devices.noSuchLink)
  await page.getByRole('button', { name: copy.devices.cancel }).click()
  // This time by the QR code's address, as the unlocked phone's camera opens it: the code is
  // filled in once the key is unlocked there, and leaves the address bar.
  await openInbox(page, `${E2E_INBOX_URL}/devices/add/${secondCode.replaceAll(' ', '-')}`)
  await unlock(page)
  await expect(page.getByLabel(copy.devices.code)).toHaveValue(secondCode)
  expect(page.url()).toBe(`${E2E_INBOX_URL}/devices/add`)
  await page.getByRole('button', { name: copy.devices.addSubmit }).click()
  await expect(page.getByRole('heading', { name: copy.devices.compareHeading })).toBeVisible()
  const genuine = await comparison(page)
  expect(genuine).toMatch(/^\d{3} \d{3}$/)
  expect(await axeViolations(page)).toEqual([])
  await expect(newDevice.getByTestId('comparison-code')).toHaveText(genuine)
  expect(await axeViolations(newDevice)).toEqual([])
  await newDevice.getByRole('button', { name: copy.devices.matches }).click()

  // Kept under the new phone's own passphrase, then the inquiry opens there.
  await expect(newDevice.getByRole('heading', { name: copy.key.keepHeading })).toBeVisible()
  await expect(newDevice.getByLabel(copy.key.secret)).toHaveCount(0)
  await newDevice.getByLabel(copy.key.passphrase, { exact: true }).fill(DEVICE_PASSPHRASE)
  await newDevice.getByLabel(copy.key.repeat).fill(DEVICE_PASSPHRASE)
  await newDevice.getByRole('button', { name: copy.key.save }).click()
  // This device is at an IP address, where WebAuthn refuses passkeys: none is offered there.
  await expect(newDevice.getByRole('heading', { name: copy.list.heading })).toBeVisible()
  await expect(newDevice.getByRole('heading', { name: copy.key.offerHeading })).toHaveCount(0)
  await newDevice.getByRole('button', { name: copy.lock }).click()
  await unlock(newDevice)
  await expect(newDevice.getByRole('heading', { name: copy.list.heading })).toBeVisible()
  await expect(newDevice.getByRole('heading', { name: copy.key.offerHeading })).toHaveCount(0)
  await inquiryEntry(newDevice, values.name).click()
  await expect(newDevice.getByText(marker).first()).toBeVisible()

  // The key crossed only as age ciphertext, and sits on the new phone only encrypted.
  const requests = sent.join('\n')
  expect(requests).toContain('/rest/v1/rpc/device_link_seal')
  expect(requests).toContain('-----BEGIN AGE ENCRYPTED FILE-----')
  for (const [where, text] of Object.entries({
    requests,
    newDeviceStorage: await webStorageContents(newDevice),
    newDeviceIndexedDb: await indexedDbContents(newDevice),
    storage: await webStorageContents(page),
    indexedDb: await indexedDbContents(page),
  })) {
    expect(text, `${where} holds the key`).not.toContain(identity)
    expect(text, `${where} holds the visitor's words`).not.toContain(marker)
  }
  expect(await indexedDbContents(newDevice)).toMatch(/-> scrypt \S+ 16/)
  expect(problems, 'the new phone’s CSP violations and errors').toEqual([])
  await phone.close()
})

test('the passkey is offered after the passphrase, then unlocks first in one tap; a forgotten passphrase removes the key, with a confirmation', async ({
  page,
}) => {
  const name = uniqueName('Passkey First')
  await sendInquiry(page, { name, contact: 'first@example.com', message: 'One tap.' })
  const identity = await secretLine()
  const { cdp, authenticatorId } = await addPrfAuthenticator(page)

  const email = await addStaff()
  await openInbox(page, E2E_INBOX_LOCALHOST_URL)
  await signIn(page, email)
  await enterCode(page, totpCode(await setupKey(page)))
  await importKey(page, { secret: await devIdentity() })
  await expect(inquiryEntry(page, name)).toBeVisible()

  // Right after the passphrase: the offer.
  await expect(page.getByRole('heading', { name: copy.key.offerHeading })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await page.getByRole('button', { name: copy.key.offerYes }).click()
  await expect(page.getByRole('status').filter({ hasText: copy.key.offerDone })).toBeVisible()
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(credentials).toHaveLength(1)
  const stored = await indexedDbContents(page)
  expect(stored).toContain('age-encryption.org/fido2prf')
  expect(stored).not.toContain(identity)

  // Passkey first: the one button, the passphrase folded away behind a disclosure.
  await page.reload()
  await expect(page.getByRole('heading', { name: copy.key.unlockHeading })).toBeVisible()
  const passkey = page.getByRole('button', { name: copy.key.passkeyUnlock })
  await expect(passkey).toBeVisible()
  await expect(page.getByLabel(copy.key.passphrase)).toBeHidden()
  expect(await axeViolations(page)).toEqual([])
  await page.keyboard.press('Tab')
  await expect(passkey).toBeFocused()
  await passkey.click()
  await expect(inquiryEntry(page, name)).toBeVisible()
  // Unlocked by the passkey: no offer.
  await expect(page.getByRole('heading', { name: copy.key.offerHeading })).toHaveCount(0)

  // The passphrase still works, as the fallback.
  await page.getByRole('button', { name: copy.lock }).click()
  await page.getByText(copy.key.usePassphrase).click()
  await page.getByLabel(copy.key.passphrase).fill(DEVICE_PASSPHRASE)
  await page.getByRole('button', { name: copy.key.unlock, exact: true }).click()
  await expect(inquiryEntry(page, name)).toBeVisible()

  // Forgot the passphrase: asked first; "Keep the key" keeps it.
  await page.getByRole('button', { name: copy.lock }).click()
  await page.getByRole('button', { name: copy.key.forgotPassphrase }).click()
  await expect(page.getByText(copy.key.forgetConfirm)).toBeVisible()
  await expect(page.getByRole('button', { name: copy.key.forgetNo })).toBeFocused()
  expect(await axeViolations(page)).toEqual([])
  await page.getByRole('button', { name: copy.key.forgetNo }).click()
  expect(await indexedDbContents(page)).toContain('age-encryption.org')
  await page.getByRole('button', { name: copy.key.forgotPassphrase }).click()
  await page.getByRole('button', { name: copy.key.forgetYes }).click()

  // Back to "no key": link this device, or import.
  await expect(page.getByRole('heading', { name: copy.key.importHeading })).toBeVisible()
  await expect(page.getByRole('status')).toHaveText(copy.key.forgotten)
  await expect(page.getByRole('button', { name: copy.devices.link })).toBeVisible()
  expect(await indexedDbContents(page)).not.toContain('age-encryption.org')
  await page.reload()
  await expect(page.getByRole('heading', { name: copy.key.importHeading })).toBeVisible()
})
