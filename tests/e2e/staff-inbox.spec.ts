import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { submitToasts } from '../../src/features/contact/contact-copy'
import { copy } from '../../inbox/src/copy'
import { totpCode } from '../../supabase/local/auth/totp'
import { DEMO_JWT_SECRET, signApiKeys } from '../../supabase/local/gateway'
import { runStaff } from '../../supabase/staff/staff-command'
import { submissionsWithId } from '../support/backend-db'
import { openFillAndSend, recordInserts, toast } from '../support/contact-form'
import { E2E_API_URL, E2E_BACKEND_DIR, E2E_INBOX_URL } from '../support/ports'
import { expect, test } from '../support/strict-page'

/**
 * The staff inbox on a phone-sized screen, against the real local backend and its Auth: a message
 * sent from the public form minutes before is read and marked by a staff member who signs in,
 * enrols TOTP, and unlocks the development identity on this device under a passphrase.
 */

const PASSWORD = 'staff password for the e2e run'
const PASSPHRASE = 'a passphrase only this device knows'

test.use({ viewport: { width: 375, height: 740 } })

async function addStaff(email: string) {
  const { serviceRoleKey } = await signApiKeys(DEMO_JWT_SECRET)
  await runStaff(['add', email, '--password', PASSWORD], {
    env: { SUPABASE_URL: E2E_API_URL, SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey },
    output: { out: () => {}, err: () => {} },
  })
}

test('staff sign in, enrol, unlock the key on the device, read the message just sent and mark it', async ({
  page,
  allowConsoleError,
}) => {
  // The inbox writes failed attempts to the console (the page shows a sentence).
  allowConsoleError(/inbox: (verification|sign-in) failed|status of 4\d\d/)
  const inserts = recordInserts(page)
  const name = `Phone Reader ${randomUUID().slice(0, 6)}`
  await openFillAndSend(page, {
    name,
    contact: 'reader@example.com',
    message: 'Read me on a phone.',
  })
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  const id = inserts[0]?.id ?? ''

  const email = `staff-${randomUUID().slice(0, 8)}@example.com`
  await addStaff(email)
  await page.goto(E2E_INBOX_URL)

  await page.getByLabel(copy.signIn.email).fill(email)
  await page.getByLabel(copy.signIn.password).fill('not the password')
  await page.getByRole('button', { name: copy.signIn.submit }).click()
  await expect(page.getByRole('alert')).toHaveText(copy.signIn.failed)
  await page.getByLabel(copy.signIn.password).fill(PASSWORD)
  await page.getByRole('button', { name: copy.signIn.submit }).click()

  // Enrolment: the QR code is drawn on the page, and the setup key is there as text.
  await expect(page.getByRole('heading', { name: copy.code.enrolHeading })).toBeVisible()
  await expect(page.getByRole('img', { name: copy.code.qrLabel })).toBeVisible()
  const setupKey = (await page.locator('.setup-key').textContent()) ?? ''
  expect(setupKey).toMatch(/^[A-Z2-7]{32}$/)
  const code = page.getByLabel(copy.code.field)
  await code.fill(String((Number(totpCode(setupKey)) + 500_000) % 1_000_000).padStart(6, '0'))
  await page.getByRole('button', { name: copy.code.submit }).click()
  await expect(page.getByRole('alert')).toHaveText(copy.code.wrong)
  await code.fill(totpCode(setupKey))
  await page.getByRole('button', { name: copy.code.submit }).click()

  // The development identity the site sealed to, imported under a passphrase.
  const identity = await readFile(`${E2E_BACKEND_DIR}/dev-identity.txt`, 'utf8')
  await page.getByLabel(copy.key.secret).fill(identity)
  await page.getByLabel(copy.key.passphrase, { exact: true }).fill(PASSPHRASE)
  await page.getByLabel(copy.key.repeat).fill(PASSPHRASE)
  await page.getByRole('button', { name: copy.key.save }).click()

  await page.getByRole('button', { name: new RegExp(name) }).click()
  await expect(page.getByRole('heading', { name })).toBeVisible()
  await expect(page.getByRole('link', { name: 'reader@example.com' })).toHaveAttribute(
    'href',
    'mailto:reader@example.com',
  )
  await expect(page.getByText('Read me on a phone.')).toBeVisible()
  await page.getByRole('button', { name: copy.detail.statuses.responded }).click()
  await expect(page.getByTestId('status')).toHaveText('responded')
  const [row] = await submissionsWithId(id)
  expect(row?.status).toBe('responded')
  expect(row?.responded_at).not.toBeNull()

  // A reload locks: the key and what it opened are gone; a wrong passphrase is told so.
  await page.reload()
  await expect(page.getByRole('heading', { name: copy.key.unlockHeading })).toBeVisible()
  await expect(page.getByText('Read me on a phone.')).toHaveCount(0)
  await page.getByLabel(copy.key.passphrase).fill('not the passphrase')
  await page.getByRole('button', { name: copy.key.unlock }).click()
  await expect(page.getByRole('alert')).toHaveText(copy.key.wrongPassphrase)
  await page.getByLabel(copy.key.passphrase).fill(PASSPHRASE)
  await page.getByRole('button', { name: copy.key.unlock }).click()
  await expect(page.getByRole('button', { name: new RegExp(name) })).toBeVisible()

  // Removed from the staff list, the same session reads nothing and is told why.
  const { serviceRoleKey } = await signApiKeys(DEMO_JWT_SECRET)
  await runStaff(['remove', email], {
    env: { SUPABASE_URL: E2E_API_URL, SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey },
    output: { out: () => {}, err: () => {} },
  })
  await page.getByRole('button', { name: copy.list.refresh }).click()
  await expect(page.getByRole('alert')).toHaveText(copy.list.noAccess)
})
