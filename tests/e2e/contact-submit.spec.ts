import {
  formCopy,
  REQUIRED_FIELDS_MESSAGE,
  submitToasts,
} from '../../src/features/contact/contact-copy'
import { panelCopy } from '../../src/features/contact/inquiry-panel-copy'
import { submissionsWithId } from '../support/backend-db'
import {
  AGE_ARMOR,
  contactForm,
  expectFormValues,
  INSERT_URL,
  markedValues,
  openFillAndSend,
  openSealed,
  recordInserts,
  recordRestBodies,
  toast,
} from '../support/contact-form'
import { expect, test } from '../support/strict-page'

/** The Secure Contact form against the real local backend: sealed in the browser, one row. */

test('a filled form is sealed in the browser, stored as one row of ciphertext, and opens with age to every value', async ({
  page,
}) => {
  const inserts = recordInserts(page)
  const bodies = recordRestBodies(page)
  const { marker, values } = markedValues('Online')
  expect(values.message).toHaveLength(5_000)
  await openFillAndSend(page, values)

  await expect(toast(page, submitToasts.sent.title)).toContainText(submitToasts.sent.description)
  await expectFormValues(page, { name: '', contact: '', project_type: '', budget: '', message: '' })

  // On the wire: exactly the sealed row, an age armor, and nothing the visitor typed.
  expect(inserts).toHaveLength(1)
  const [sent] = inserts
  expect(Object.keys(sent ?? {}).sort()).toEqual(['id', 'key_id', 'mailbox_hash', 'sealed'])
  expect(sent?.sealed).toMatch(AGE_ARMOR)
  // The mailbox token's SHA-256 as PostgREST takes a bytea; the receipt itself never leaves.
  expect(sent?.mailbox_hash).toMatch(/^\\x[0-9a-f]{64}$/)
  expect(bodies.length).toBeGreaterThan(0)
  for (const body of bodies) {
    expect(body).toContain('-----BEGIN AGE ENCRYPTED FILE-----')
    expect(body).not.toContain(marker)
  }

  // In the table: one row, no column holding a marker; staff open it with the stock tool.
  const rows = await submissionsWithId(sent!.id)
  expect(rows).toHaveLength(1)
  const [row] = rows
  expect(JSON.stringify(row)).not.toContain(marker)
  expect(row).toMatchObject({ key_id: sent?.key_id, sealed: sent?.sealed })
  // The table has no column for what was typed: it exists only inside the ciphertext.
  expect(Object.keys(row!)).not.toContain('name')
  expect(Object.keys(row!)).not.toContain('message')
  const userAgent = await page.evaluate(() => navigator.userAgent)
  expect(await openSealed(row!.sealed!)).toMatchObject({
    v: 1,
    attachments: [],
    reply_to: expect.stringMatching(/^age1[0-9a-z]{58}$/),
    id: sent?.id,
    ...values,
    user_agent: userAgent,
    submitted_at: expect.stringMatching(/Z$/),
  })
})

test('text is trimmed and unchosen dropdowns are sealed as null', async ({ page }) => {
  const inserts = recordInserts(page)
  await openFillAndSend(page, {
    name: '  Bo  ',
    contact: ' nd@example.com ',
    message: '  Just a question.\n',
  })
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()

  const [row] = await submissionsWithId(inserts[0]!.id)
  expect(await openSealed(row!.sealed!)).toMatchObject({
    name: 'Bo',
    contact: 'nd@example.com',
    message: 'Just a question.',
    project_type: null,
    budget: null,
  })
})

test('whitespace-only required fields give the required-fields toast and send no request', async ({
  page,
}) => {
  const inserts = recordInserts(page)
  await openFillAndSend(page, { name: '   ', contact: '  ', message: ' \n ' })

  await expect(toast(page, REQUIRED_FIELDS_MESSAGE)).toBeVisible()
  await expect(contactForm(page).name).toHaveAttribute('aria-invalid', 'true')
  await expect(contactForm(page).name).toBeFocused()
  expect(inserts).toEqual([])
})

test('while sending, the button reads "Encrypting & Sending..." and is disabled; a slow send says so below it', async ({
  page,
}) => {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(INSERT_URL, async (route) => {
    await held
    await route.continue()
  })
  const inserts = recordInserts(page)
  await openFillAndSend(page, {
    name: 'Slow Network',
    contact: 'slow@example.com',
    message: 'Take your time.',
  })

  const sending = page.getByRole('button', { name: formCopy.sending })
  await expect(sending).toBeDisabled()
  await expect(page.getByText(formCopy.stillSending)).toBeVisible({ timeout: 8_000 })
  await expect(sending).toBeVisible()
  release()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  // The emptied form waits under the panel until the visitor asks for it.
  await page.getByRole('button', { name: panelCopy.another }).click()
  await expect(contactForm(page).submit).toBeEnabled()
  await expect(page.getByText(formCopy.stillSending)).toBeHidden()
  expect(await submissionsWithId(inserts[0]!.id)).toHaveLength(1)
})
