import { REQUIRED_FIELDS_MESSAGE, submitToasts } from '../../src/features/contact/contact-copy'
import { submissionsNamed, uniqueName } from '../support/backend-db'
import {
  contactForm,
  expectFormValues,
  fillContactForm,
  INSERT_URL,
  openContactPage,
  recordInserts,
  refuseInserts,
  serverErrorAnswer,
  toast,
} from '../support/contact-form'
import { expect, test } from '../support/strict-page'

/** The Secure Contact form against the real local backend (issue: form to Supabase). */

test('a filled form is stored as exactly one row with all six columns, then the form is cleared', async ({ page }) => {
  const name = uniqueName('Ada Lovelace')
  await openContactPage(page)
  await fillContactForm(page, {
    name: `  ${name}  `,
    contact: ' @ada_l ',
    projectType: 'crypto/web3-launch',
    budget: '50k-100k',
    message: '  Presale in Q3, need a community first.\nSecond line.  ',
  })
  await contactForm(page).submit.click()

  await expect(toast(page, submitToasts.sent.title)).toContainText(submitToasts.sent.description)
  const rows = await submissionsNamed(name)
  expect(rows).toHaveLength(1)
  const userAgent = await page.evaluate(() => navigator.userAgent)
  expect(rows[0]).toMatchObject({
    name,
    contact: '@ada_l',
    project_type: 'crypto/web3-launch',
    budget: '50k-100k',
    message: 'Presale in Q3, need a community first.\nSecond line.',
    user_agent: userAgent,
  })
  expect(rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/)
  expect(Date.now() - (rows[0]?.created_at.getTime() ?? 0)).toBeLessThan(60_000)

  await expectFormValues(page, { name: '', contact: '', projectType: '', budget: '', message: '' })
})

test('unchosen dropdowns are stored as null', async ({ page }) => {
  const name = uniqueName('No Dropdowns')
  await openContactPage(page)
  await fillContactForm(page, { name, contact: 'nd@example.com', message: 'Just a question.' })
  await contactForm(page).submit.click()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  const rows = await submissionsNamed(name)
  expect(rows.map((row) => [row.project_type, row.budget])).toEqual([[null, null]])
})

test('whitespace-only required fields give the required-fields toast and send no request', async ({ page }) => {
  const inserts = recordInserts(page)
  await openContactPage(page)
  await fillContactForm(page, { name: '   ', contact: '  ', message: ' \n ' })
  await contactForm(page).submit.click()

  await expect(toast(page, REQUIRED_FIELDS_MESSAGE)).toBeVisible()
  await expect(contactForm(page).name).toHaveAttribute('aria-invalid', 'true')
  await expect(contactForm(page).name).toBeFocused()
  expect(inserts).toEqual([])
})

test('a backend failure shows "Submission failed" with its message and keeps every value', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/Contact submission failed|status of 500/)
  await page.route(INSERT_URL, (route) => route.fulfill(serverErrorAnswer('database is restarting')))
  const values = {
    name: uniqueName('Kept Values'),
    contact: 'kept@example.com',
    projectType: 'payment-solutions',
    budget: 'discuss',
    message: 'Everything I typed must still be here.',
  }
  await openContactPage(page)
  await fillContactForm(page, values)
  await contactForm(page).submit.click()

  const failed = toast(page, submitToasts.failed.title)
  await expect(failed).toContainText('database is restarting')
  await expectFormValues(page, values)
  await expect(contactForm(page).submit).toBeEnabled()
  expect(await submissionsNamed(values.name)).toEqual([])
})

test('a refusal by the real database shows its own message and keeps every value', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/Contact submission failed|status of 400/)
  // The database, not the form, must refuse: send a project type it does not allow.
  await refuseInserts(page, { project_type: 'pyramid-scheme' })
  const values = {
    name: uniqueName('Refused'),
    contact: 'refused@example.com',
    projectType: 'other',
    budget: '',
    message: 'The database will say no.',
  }
  await openContactPage(page)
  await fillContactForm(page, values)
  await contactForm(page).submit.click()

  await expect(toast(page, submitToasts.failed.title)).toContainText(
    'violates check constraint "contact_submissions_project_type_check"',
  )
  await expectFormValues(page, values)
  expect(await submissionsNamed(values.name)).toEqual([])
})

test('while sending, the button reads "Encrypting & Sending..." and is disabled', async ({ page }) => {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(INSERT_URL, async (route) => {
    await held
    await route.continue()
  })
  const name = uniqueName('Slow Network')
  await openContactPage(page)
  await fillContactForm(page, { name, contact: 'slow@example.com', message: 'Take your time.' })
  await contactForm(page).submit.click()

  const sending = page.getByRole('button', { name: 'Encrypting & Sending...' })
  await expect(sending).toBeDisabled()
  release()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  await expect(contactForm(page).submit).toBeEnabled()
  expect(await submissionsNamed(name)).toHaveLength(1)
})
