import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { expect, type Page } from '@playwright/test'
import { copy } from '../../src/inbox/content/copy'
import { totpCode } from '../../supabase/local/auth/totp'
import { DEMO_JWT_SECRET, signApiKeys } from '../../supabase/local/gateway'
import { runStaff } from '../../supabase/staff/staff-command'
import { E2E_API_URL, E2E_BACKEND_DIR, E2E_INBOX_URL } from './ports'

/**
 * The staff inbox as a staff member meets it: an account added with `npm run staff`, the sign-in,
 * the TOTP enrolment with a code computed from the setup key on the page, and the development
 * identity (the key the e2e site seals to) imported under a passphrase.
 */

export const STAFF_PASSWORD = 'staff password for the e2e run'
export const DEVICE_PASSPHRASE = 'a passphrase only this device knows'

async function staff(args: string[]): Promise<void> {
  const { serviceRoleKey } = await signApiKeys(DEMO_JWT_SECRET)
  // It throws on failure; what it prints (a password, once) is not wanted here.
  await runStaff(args, {
    env: { SUPABASE_URL: E2E_API_URL, SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey },
    output: { out: () => {}, err: () => {} },
  })
}

/** A new staff account (an Auth user on the staff list), by `npm run staff -- add`. */
export async function addStaff(): Promise<string> {
  const email = `staff-${randomUUID().slice(0, 8)}@example.com`
  await staff(['add', email, '--password', STAFF_PASSWORD])
  return email
}

export const removeStaff = (email: string) => staff(['remove', email])

/**
 * Waits until the inbox has read where the session stands: a screen's heading is drawn (while
 * the session is read, the page shows no screen at all).
 */
export async function waitForInbox(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor()
}

/** Opens the inbox (at `url`: an alert's link, a linking code) and waits for its first screen. */
export async function openInbox(page: Page, url: string = E2E_INBOX_URL): Promise<void> {
  await page.goto(url)
  await waitForInbox(page)
}

/** The development identity the e2e site seals to (tests/support/build-e2e.sh). */
export const devIdentity = () => readFile(`${E2E_BACKEND_DIR}/dev-identity.txt`, 'utf8')

export async function signIn(page: Page, email: string, password = STAFF_PASSWORD): Promise<void> {
  await page.getByLabel(copy.signIn.email).fill(email)
  await page.getByLabel(copy.signIn.password).fill(password)
  await page.getByRole('button', { name: copy.signIn.submit }).click()
}

/** The enrolment screen's setup key, as text on the page. */
export async function setupKey(page: Page): Promise<string> {
  await expect(page.getByRole('heading', { name: copy.code.enrolHeading })).toBeVisible()
  const key = (await page.locator('.setup-key').textContent()) ?? ''
  expect(key).toMatch(/^[A-Z2-7]{32}$/)
  return key
}

export async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByLabel(copy.code.field).fill(code)
  await page.getByRole('button', { name: copy.code.submit }).click()
}

/** A code the authenticator would not show now (the right one, shifted). */
export const wrongCode = (key: string) =>
  String((Number(totpCode(key)) + 500_000) % 1_000_000).padStart(6, '0')

/**
 * Pastes the key (or opens `file`) and saves it under the device passphrase, and to a passkey
 * too with `passkey`.
 */
export async function importKey(
  page: Page,
  key: { secret: string } | { file: Buffer; filePassphrase: string },
  options: { passkey?: boolean } = {},
): Promise<void> {
  if ('secret' in key) await page.getByLabel(copy.key.secret).fill(key.secret)
  else {
    await page.getByLabel(copy.key.file).setInputFiles({
      name: 'agency-key.age',
      mimeType: 'application/octet-stream',
      buffer: key.file,
    })
    await page.getByLabel(copy.key.filePassphrase).fill(key.filePassphrase)
  }
  await page.getByLabel(copy.key.passphrase, { exact: true }).fill(DEVICE_PASSPHRASE)
  await page.getByLabel(copy.key.repeat).fill(DEVICE_PASSPHRASE)
  if (options.passkey) await page.getByLabel(copy.key.addPasskey).check()
  await page.getByRole('button', { name: copy.key.save }).click()
}

export async function unlock(page: Page, passphrase = DEVICE_PASSPHRASE): Promise<void> {
  await expect(page.getByRole('heading', { name: copy.key.unlockHeading })).toBeVisible()
  await page.getByLabel(copy.key.passphrase).fill(passphrase)
  await page.getByRole('button', { name: copy.key.unlock }).click()
}

/**
 * A new staff member's first visit, up to the unlocked list: sign in, enrol, import the
 * development identity. Returns the account and its TOTP setup key.
 */
export async function firstVisit(
  page: Page,
  path = '/',
): Promise<{ email: string; totpKey: string }> {
  const email = await addStaff()
  await openInbox(page, `${E2E_INBOX_URL}${path}`)
  await signIn(page, email)
  const totpKey = await setupKey(page)
  await enterCode(page, totpCode(totpKey))
  await importKey(page, { secret: await devIdentity() })
  await expect(page.getByRole('heading', { name: copy.list.heading })).toBeVisible()
  return { email, totpKey }
}

/** The refresh token in a dump of web storage (the session's JSON, escaped or not). */
export const refreshTokenIn = (storage: string) =>
  /"refresh_token\\?":\\?"([^"\\]+)/.exec(storage)?.[1]

/** The status of Auth's answer to a refresh with `refreshToken`: 400 once its session ended. */
export async function refreshStatus(refreshToken: string | undefined): Promise<number> {
  const { anonKey } = await signApiKeys(DEMO_JWT_SECRET)
  const refreshed = await fetch(`${E2E_API_URL}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  })
  return refreshed.status
}

/** The list's entry for an inquiry, by the name it was sent under. */
export const inquiryEntry = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(name) })
