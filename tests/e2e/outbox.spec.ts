import { outboxCopy, submitToasts } from '../../src/features/contact/contact-copy'
import { submissionsNamed, uniqueName } from '../support/backend-db'
import {
  contactForm,
  expectFormValues,
  fillContactForm,
  INSERT_URL,
  openContactPage,
  refuseInserts,
  serverErrorAnswer,
  toast,
  type ContactValues,
} from '../support/contact-form'
import { goOffline, goOnline, outboxRecords, waitForOfflineReady } from '../support/offline'
import type { BrowserContext, Page } from '@playwright/test'
import { expect, test } from '../support/strict-page'

/** Submissions made without a connection: kept in IndexedDB, sent once, never lost or doubled. */

test.use({ serviceWorkers: 'allow' })

function brief(label: string): Required<ContactValues> {
  return {
    name: uniqueName(label),
    contact: `${label.toLowerCase().replace(/\W+/g, '.')}@example.com`,
    projectType: 'community-building',
    budget: '25k-50k',
    message: `Brief from ${label}.`,
  }
}

/**
 * Opens /contact, lets the service worker cache the site (so later reloads and navigation work
 * offline), cuts the network and queues `values`.
 */
async function queueWhileOffline(page: Page, context: BrowserContext, values: ContactValues) {
  await openContactPage(page)
  await waitForOfflineReady(page)
  await goOffline(context)
  await sendOffline(page, values)
}

async function sendOffline(page: Page, values: ContactValues) {
  await fillContactForm(page, values)
  await contactForm(page).submit.click()
  await expect(toast(page, submitToasts.queued.title).last()).toBeVisible()
  await expect(contactForm(page).name).toHaveValue('')
}

test('a message sent offline waits in IndexedDB, then arrives exactly once when the connection returns', async ({
  page,
  context,
  allowConsoleError,
}) => {
  // The connection drops while the first visit is still loading: before the service worker could
  // even be fetched, and often while the contact page is still fetching the toaster ahead of need
  // (or an icon). Chromium reports each aborted load; which ones depends on timing. The page must
  // cope (the plain toaster stands in), and the test checks it does.
  allowConsoleError(
    /An unknown error occurred when fetching the script|Failed to load resource: net::ERR_INTERNET_DISCONNECTED/,
  )
  const values = brief('Offline Once')
  await openContactPage(page)
  await goOffline(context)
  await sendOffline(page, values)

  const [record] = await outboxRecords(page)
  expect(record).toMatchObject({
    version: 1,
    state: 'pending',
    submission: {
      name: values.name,
      contact: values.contact,
      project_type: values.projectType,
      budget: values.budget,
      message: values.message,
      user_agent: await page.evaluate(() => navigator.userAgent),
    },
  })
  await expect(page.getByText(outboxCopy.waiting(1))).toBeVisible()
  expect(await submissionsNamed(values.name)).toEqual([])

  await goOnline(context)
  await expect(toast(page, submitToasts.sent.title)).toContainText(submitToasts.sent.description)
  const rows = await submissionsNamed(values.name)
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({
    contact: values.contact,
    message: values.message,
    budget: values.budget,
  })
  await expect.poll(() => outboxRecords(page)).toEqual([])
  await expect(page.getByText(outboxCopy.waiting(1))).toBeHidden()
})

test('when "online" comes before the network works, the outbox keeps trying until it does', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(/ERR_INTERNET_DISCONNECTED|An unknown error occurred when fetching the script/)
  const values = brief('Slow Comeback')
  await openContactPage(page)
  await goOffline(context)
  await sendOffline(page, values)

  // The browser says it is online again, but every request still fails (as on a phone whose
  // connection is coming back).
  await context.setOffline(false)
  await page.waitForTimeout(1_500)
  expect(await submissionsNamed(values.name)).toEqual([])
  await expect(page.getByText(outboxCopy.waiting(1))).toBeVisible()

  await context.unroute('**/*')
  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 10_000 })
  expect(await submissionsNamed(values.name)).toHaveLength(1)
})

test('three messages sent offline, then a reload while still offline, become exactly three rows', async ({
  page,
  context,
}) => {
  const base = uniqueName('Triple')
  await openContactPage(page)
  await waitForOfflineReady(page)
  await goOffline(context)
  for (const n of [1, 2, 3]) {
    await sendOffline(page, {
      name: `${base} #${n}`,
      contact: `t${n}@example.com`,
      message: `Message ${n}`,
    })
  }
  expect(await outboxRecords(page)).toHaveLength(3)

  await page.reload()
  await expect(contactForm(page).name).toBeEnabled()
  await expect(page.getByText(outboxCopy.waiting(3))).toBeVisible()

  await goOnline(context)
  await expect.poll(() => outboxRecords(page), { timeout: 15_000 }).toEqual([])
  for (const n of [1, 2, 3]) expect(await submissionsNamed(`${base} #${n}`)).toHaveLength(1)
})

test('an answer lost after the row was stored is retried and still makes exactly one row', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/ERR_CONNECTION_RESET|ERR_FAILED|status of 409/)
  let calls = 0
  await page.route(INSERT_URL, async (route) => {
    calls += 1
    if (calls === 1) {
      // The insert reaches the backend and commits; its answer never reaches the page.
      const answer = await route.fetch()
      expect(answer.status()).toBe(201)
      await route.abort('connectionreset')
      return
    }
    await route.continue()
  })
  const values = brief('Lost Answer')
  await openContactPage(page)
  await fillContactForm(page, values)
  await contactForm(page).submit.click()

  await expect(toast(page, submitToasts.queued.title)).toBeVisible()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  expect(calls).toBe(2)
  expect(await submissionsNamed(values.name)).toHaveLength(1)
  await expect.poll(() => outboxRecords(page)).toEqual([])
})

test('a queued message survives two server errors and is stored once when the backend accepts', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 500/)
  const values = brief('Two Errors')
  await queueWhileOffline(page, context, values)

  let calls = 0
  // A page route answers before the context's offline routes; no insert is tried while offline.
  await page.route(INSERT_URL, async (route) => {
    calls += 1
    if (calls <= 2) {
      await route.fulfill(serverErrorAnswer('temporarily unavailable'))
      return
    }
    await route.continue()
  })
  await goOnline(context)

  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 15_000 })
  expect(calls).toBe(3)
  expect(await submissionsNamed(values.name)).toHaveLength(1)
})

test('a queued message the backend refuses comes back into the form with the error toast', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 400|queued contact submission was refused/)
  const values = brief('Refused Later')
  await queueWhileOffline(page, context, values)

  await refuseInserts(page, { budget: 'a-billion' })
  await goOnline(context)

  await expect(toast(page, submitToasts.failed.title)).toContainText(
    'contact_submissions_budget_check',
  )
  await expectFormValues(page, values)
  expect(await submissionsNamed(values.name)).toEqual([])
  // Back in the form, yet still kept on the device until it is really sent.
  expect(await outboxRecords(page)).toMatchObject([{ state: 'needs-attention' }])

  await page.unroute(INSERT_URL)
  await contactForm(page).submit.click()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  expect(await submissionsNamed(values.name)).toHaveLength(1)
  await expect.poll(() => outboxRecords(page)).toEqual([])
})

test('a message refused while the visitor is elsewhere waits for review and can be edited in the form', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 400|queued contact submission was refused/)
  const values = brief('Needs Review')
  await queueWhileOffline(page, context, values)
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Services' })
    .click()
  await expect(page).toHaveURL('/services')

  await refuseInserts(page, { project_type: 'unknown' })
  await goOnline(context)

  await expect(toast(page, submitToasts.failed.title)).toBeVisible()
  const review = page.getByRole('button', { name: outboxCopy.needsAttention(1) })
  await expect(review).toBeVisible()
  expect(await outboxRecords(page)).toMatchObject([{ state: 'needs-attention' }])

  await review.click()
  const dialog = page.getByRole('dialog', { name: outboxCopy.reviewTitle })
  await expect(dialog).toContainText(values.message)
  await dialog.getByRole('button', { name: outboxCopy.edit }).click()

  await expect(page).toHaveURL('/contact')
  await expectFormValues(page, values)
  expect(await outboxRecords(page)).toMatchObject([{ state: 'needs-attention' }])

  await page.unroute(INSERT_URL)
  await contactForm(page).submit.click()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  expect(await submissionsNamed(values.name)).toHaveLength(1)
  await expect.poll(() => outboxRecords(page)).toEqual([])
  await expect(review).toBeHidden()
})
