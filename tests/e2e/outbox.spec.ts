import { submitToasts } from '../../src/features/contact/contact-copy'
import { outboxCopy } from '../../src/features/outbox/outbox-copy'
import { submissionsWithId } from '../support/backend-db'
import {
  AGE_ARMOR,
  contactForm,
  type ContactValues,
  expectFormValues,
  fillAndSend,
  INSERT_URL,
  markedValues,
  openContactPage,
  openFillAndSend,
  openSealed,
  recordRestBodies,
  refuseInserts,
  serverErrorAnswer,
  startOnForm,
  toast,
} from '../support/contact-form'
import {
  goOffline,
  goOnline,
  indexedDbContents,
  openContactPageOffline,
  outboxRecords,
} from '../support/offline'
import type { BrowserContext, Page } from '@playwright/test'
import { expect, test } from '../support/strict-page'

/** Messages sent without a connection: sealed, kept in IndexedDB, sent once, never lost or doubled. */

test.use({ serviceWorkers: 'allow' })

function brief(label: string): Required<ContactValues> {
  return {
    name: `${label} sender`,
    contact: 'queued@example.com',
    project_type: 'community-building',
    budget: '25k-50k',
    message: `Brief from ${label}.`,
  }
}

/** Opens /contact with the site cached, cuts the network and queues `values`; returns its id. */
async function queueWhileOffline(
  page: Page,
  context: BrowserContext,
  values: ContactValues,
): Promise<string> {
  await openContactPageOffline(page, context)
  return sendOffline(page, values)
}

/** Queues a message while offline that the test will have refused, expecting the console lines the refusal logs. */
async function queueForRefusal(
  page: Page,
  context: BrowserContext,
  allowConsoleError: (pattern: RegExp) => void,
  name: string,
): Promise<string> {
  allowConsoleError(/status of 4\d\d|queued contact message was refused/)
  return queueWhileOffline(page, context, brief(name))
}

/** Focuses the form, which loads the crypto chunk and the outbox's storage, and waits until they have arrived. */
async function startOnFormAndWait(page: Page): Promise<void> {
  expect((await startOnForm(page)).ok()).toBe(true)
  // And the outbox's storage code, fetched at the same moment.
  await page.waitForLoadState('networkidle')
}

async function sendOffline(page: Page, values: ContactValues): Promise<string> {
  const before = new Set((await outboxRecords(page)).map((record) => record.id))
  await fillAndSend(page, values)
  await expect(toast(page, submitToasts.queued.title).last()).toBeVisible()
  await expect(contactForm(page).name).toHaveValue('')
  const added = (await outboxRecords(page)).find((record) => !before.has(record.id))
  return String(added?.id)
}

test('a message sent offline is sealed on the device, then arrives exactly once, readable only with the key', async ({
  page,
  context,
  allowConsoleError,
}) => {
  // The connection drops while the first visit is still loading (before the service worker or
  // the toaster could be fetched, but after the visitor started on the form); Chromium reports
  // each aborted load, depending on timing.
  allowConsoleError(
    /An unknown error occurred when fetching the script|Failed to load resource: net::ERR_INTERNET_DISCONNECTED/,
  )
  const bodies = recordRestBodies(page)
  const { marker, values } = markedValues('Offline')
  await openContactPage(page)
  await startOnFormAndWait(page)
  await goOffline(context)
  const id = await sendOffline(page, values)

  // Shown the moment it is queued, and nothing readable anywhere in IndexedDB.
  await expect(page.getByText(outboxCopy.waiting(1))).toBeVisible()
  const [record] = await outboxRecords(page)
  expect(Object.keys(record ?? {}).sort()).toEqual(
    [
      'attempts',
      'id',
      'key_id',
      'kind',
      'last_error',
      'mailbox_hash',
      'next_attempt_at',
      'queued_at',
      'sealed',
      'state',
      'v',
    ].sort(),
  )
  expect(record).toMatchObject({
    v: 1,
    kind: 'inquiry',
    id,
    mailbox_hash: expect.stringMatching(/^\\x[0-9a-f]{64}$/),
    state: 'pending',
    sealed: expect.stringMatching(AGE_ARMOR),
  })
  expect(await indexedDbContents(page)).not.toContain(marker)
  expect(bodies).toEqual([])
  expect(await submissionsWithId(id)).toEqual([])

  await goOnline(context)
  await expect(toast(page, submitToasts.sent.title)).toContainText(submitToasts.sent.description)
  await expect.poll(() => outboxRecords(page)).toEqual([])
  await expect(page.getByText(outboxCopy.waiting(1))).toBeHidden()
  const rows = await submissionsWithId(id)
  expect(rows).toHaveLength(1)
  expect(JSON.stringify(rows[0])).not.toContain(marker)
  expect(rows[0]?.sealed).toBe(record?.sealed)
  for (const body of bodies) {
    expect(body).toMatch(/-----BEGIN AGE ENCRYPTED FILE-----/)
    expect(body).not.toContain(marker)
  }
  expect(await openSealed(rows[0]!.sealed!)).toMatchObject({ id, ...values, budget: values.budget })
})

test('offline before the encryption code could load, nothing is sent or stored and every value stays', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(
    /ERR_INTERNET_DISCONNECTED|An unknown error occurred when fetching the script|Contact submission failed/,
  )
  const values = { ...brief('Fail Closed'), budget: '' }
  await openContactPage(page)
  await goOffline(context)
  await fillAndSend(page, values)

  await expect(toast(page, submitToasts.failed.title)).toContainText('nothing was sent')
  await expectFormValues(page, values)
  expect(await outboxRecords(page)).toEqual([])
  await expect(page.getByText(outboxCopy.waiting(1))).toBeHidden()
})

test('when "online" comes before the network works, the outbox keeps trying until it does', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(/ERR_INTERNET_DISCONNECTED|An unknown error occurred when fetching the script/)
  await openContactPage(page)
  await startOnFormAndWait(page)
  await goOffline(context)
  const id = await sendOffline(page, brief('Slow Comeback'))

  // The browser says it is online again, but every request still fails (as on a phone whose
  // connection is coming back).
  await context.setOffline(false)
  await page.waitForTimeout(1_500)
  expect(await submissionsWithId(id)).toEqual([])
  await expect(page.getByText(outboxCopy.waiting(1))).toBeVisible()

  await context.unroute('**/*')
  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 10_000 })
  expect(await submissionsWithId(id)).toHaveLength(1)
})

test('three messages sent offline, then a reload while still offline, become exactly three rows', async ({
  page,
  context,
}) => {
  await openContactPageOffline(page, context)
  const ids: string[] = []
  for (const n of [1, 2, 3])
    ids.push(
      await sendOffline(page, {
        name: `Triple #${n}`,
        contact: `t${n}@example.com`,
        message: `Message ${n}`,
      }),
    )
  expect(new Set(ids).size).toBe(3)
  await expect(page.getByText(outboxCopy.waiting(3))).toBeVisible()

  await page.reload()
  await expect(contactForm(page).name).toBeEnabled()
  await expect(page.getByText(outboxCopy.waiting(3))).toBeVisible()

  await goOnline(context)
  await expect.poll(() => outboxRecords(page), { timeout: 15_000 }).toEqual([])
  for (const id of ids) expect(await submissionsWithId(id)).toHaveLength(1)
})

test('an answer lost after the row was stored is retried and still makes exactly one row', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/ERR_CONNECTION_RESET|ERR_FAILED|status of 409/)
  let calls = 0
  let id = ''
  await page.route(INSERT_URL, async (route) => {
    calls += 1
    if (calls === 1) {
      // The insert reaches the backend and commits; its answer never reaches the page.
      id = (JSON.parse(route.request().postData() ?? '{}') as { id: string }).id
      const answer = await route.fetch()
      expect(answer.status()).toBe(201)
      await route.abort('connectionreset')
      return
    }
    await route.continue()
  })
  await openFillAndSend(page, brief('Lost Answer'))

  await expect(toast(page, submitToasts.queued.title)).toBeVisible()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  expect(calls).toBe(2)
  expect(await submissionsWithId(id)).toHaveLength(1)
  await expect.poll(() => outboxRecords(page)).toEqual([])
})

test('a queued message survives two server errors and is stored once when the backend accepts', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 500/)
  const id = await queueWhileOffline(page, context, brief('Two Errors'))

  let calls = 0
  // A page route answers before the context's offline routes; no insert is tried while offline.
  await page.route(INSERT_URL, async (route) => {
    calls += 1
    if (calls <= 2) return route.fulfill(serverErrorAnswer('temporarily unavailable'))
    return route.continue()
  })
  await goOnline(context)

  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 15_000 })
  expect(calls).toBe(3)
  expect(await submissionsWithId(id)).toHaveLength(1)
})

test('a queued message refused while the visitor is elsewhere says which one, and can be resent as it is', async ({
  page,
  context,
  allowConsoleError,
}) => {
  const id = await queueForRefusal(page, context, allowConsoleError, 'Needs Review')
  const [queued] = await outboxRecords(page)
  const queuedAt = await page.evaluate(
    (iso) => new Date(iso).toLocaleString(undefined, { timeStyle: 'short' }),
    String(queued?.queued_at),
  )
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Services' })
    .click()
  await expect(page).toHaveURL('/services')

  // A key the database has never registered: PostgreSQL itself refuses the row.
  await refuseInserts(page, { key_id: 'ffffffffffffffff' })
  await goOnline(context)

  const refused = toast(page, submitToasts.failed.title)
  await expect(refused).toContainText(`queued at ${queuedAt}`)
  await expect(refused).not.toContainText(/constraint|violates|contact_submissions|key_id|</)
  const review = page.getByRole('button', { name: outboxCopy.notDelivered(1) })
  await expect(review).toBeVisible()
  expect(await outboxRecords(page)).toMatchObject([{ id, state: 'needs-attention' }])

  await review.click()
  const dialog = page.getByRole('dialog', { name: outboxCopy.reviewTitle })
  await expect(dialog).toContainText(outboxCopy.queuedAt(queuedAt))
  await expect(dialog.getByRole('button')).toHaveText([
    outboxCopy.resend,
    outboxCopy.discard,
    outboxCopy.close,
  ])

  await page.unroute(INSERT_URL)
  await dialog.getByRole('button', { name: outboxCopy.resend }).click()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  expect(await submissionsWithId(id)).toHaveLength(1)
  await expect.poll(() => outboxRecords(page)).toEqual([])
  await expect(review).toBeHidden()
  await expect(dialog).toContainText(outboxCopy.empty)
})

test('a refused message can be discarded, and then nothing is left on the device', async ({
  page,
  context,
  allowConsoleError,
}) => {
  const id = await queueForRefusal(page, context, allowConsoleError, 'Discarded')
  await refuseInserts(page, { sealed: 'plain text pretending to be sealed' })
  await goOnline(context)

  await page.getByRole('button', { name: outboxCopy.notDelivered(1) }).click()
  await page.getByRole('dialog').getByRole('button', { name: outboxCopy.discard }).click()

  await expect.poll(() => outboxRecords(page)).toEqual([])
  await expect(page.getByRole('button', { name: outboxCopy.notDelivered(1) })).toBeHidden()
  expect(await submissionsWithId(id)).toEqual([])
})
