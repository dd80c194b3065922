import type { Page, Route } from '@playwright/test'
import { failureMessages, formCopy, submitToasts } from '../../src/features/contact/contact-copy'
import { outboxCopy } from '../../src/features/outbox/outbox-copy'
import { submissionsWithId } from '../support/backend-db'
import {
  contactForm,
  expectFormValues,
  fillAndSend,
  INSERT_URL,
  openContactPage,
  openFillAndSend,
  recordInserts,
  recordToasts,
  refuseInserts,
  SEALER_CHUNK,
  serverErrorAnswer,
  toast,
} from '../support/contact-form'
import { outboxRecords } from '../support/offline'
import { expect, test } from '../support/strict-page'

/**
 * Every failure the form can meet on the way to the backend (issue 11): the visitor reads a
 * sentence, never markup, SQL or a constraint name, and either keeps every value in the form or
 * finds the message queued on the device, as the README's table says.
 */

const values = {
  name: 'Error Path',
  contact: 'errors@example.com',
  project_type: 'payment-solutions',
  budget: 'discuss',
  message: 'Everything I typed must still be here.',
}

const RAW =
  /<|>|constraint|violates|contact_submissions|sqlstate|PGRST|23\d{3}|Bad Gateway|Service Unavailable/i

async function send(page: Page) {
  await openFillAndSend(page, values)
}

const html = (status: number, title: string) => ({
  status,
  contentType: 'text/html',
  body: `<html><head><title>${status} ${title}</title></head><body><h1>${title}</h1><hr>nginx</body></html>`,
})

const failures: { name: string; answer: (route: Route) => Promise<void>; shown: string }[] = [
  {
    name: 'a 400 with a PostgREST body naming a constraint',
    answer: (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          code: '23514',
          details: 'Failing row contains (…).',
          hint: null,
          message:
            'new row for relation "contact_submissions" violates check constraint "contact_submissions_sealed_check"',
        }),
      }),
    shown: failureMessages.notAccepted,
  },
  {
    name: 'a 401 without a body',
    answer: (route) => route.fulfill({ status: 401, body: '' }),
    shown: failureMessages.fallback,
  },
  {
    name: 'a 404 HTML error page',
    answer: (route) => route.fulfill(html(404, 'Not Found')),
    shown: failureMessages.unavailable,
  },
  {
    name: 'a 500 from PostgREST',
    answer: (route) => route.fulfill(serverErrorAnswer('permission denied for schema private')),
    shown: failureMessages.serverError,
  },
]

for (const failure of failures) {
  test(`${failure.name}: a human message, every value kept, nothing queued`, async ({
    page,
    allowConsoleError,
  }) => {
    allowConsoleError(/Contact submission failed|status of \d{3}/)
    await page.route(INSERT_URL, failure.answer)
    await send(page)

    const failed = toast(page, submitToasts.failed.title)
    await expect(failed).toContainText(failure.shown)
    await expect(failed).not.toContainText(RAW)
    await expectFormValues(page, values)
    await expect(contactForm(page).submit).toBeEnabled()
    expect(await outboxRecords(page)).toEqual([])
    // Kept in the form, so nothing on the device needs attention.
    await expect(page.getByText(outboxCopy.notDelivered(1))).toBeHidden()
  })
}

const noAnswers: { name: string; answer: (route: Route) => Promise<void> }[] = [
  {
    name: 'a 502 HTML page from a gateway',
    answer: (route) => route.fulfill(html(502, 'Bad Gateway')),
  },
  {
    name: 'a 503 HTML page from a gateway',
    answer: (route) => route.fulfill(html(503, 'Service Unavailable')),
  },
  { name: 'a 504 from a gateway', answer: (route) => route.fulfill({ status: 504, body: '' }) },
  {
    name: 'a 429 with Retry-After',
    answer: (route) =>
      route.fulfill({
        status: 429,
        headers: { 'Retry-After': '30' },
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'rate_limited',
          message: 'Too many submissions from this network today',
        }),
      }),
  },
  { name: 'a connection reset', answer: (route) => route.abort('connectionreset') },
  { name: 'a network timeout', answer: (route) => route.abort('timedout') },
]

for (const failure of noAnswers) {
  test(`${failure.name} counts as no answer: the message is queued, online too, and no failure is shown`, async ({
    page,
    allowConsoleError,
  }) => {
    allowConsoleError(/status of \d{3}|ERR_CONNECTION_RESET|ERR_TIMED_OUT|ERR_FAILED/)
    await page.route(INSERT_URL, failure.answer)
    await send(page)

    await expect(toast(page, submitToasts.queued.title)).toContainText(
      submitToasts.queued.description,
    )
    await expect(toast(page, submitToasts.failed.title)).toHaveCount(0)
    await expect(contactForm(page).name).toHaveValue('')
    await expect(page.getByText(outboxCopy.waiting(1))).toBeVisible()
    expect(await outboxRecords(page)).toMatchObject([{ state: 'pending' }])
  })
}

test('an insert that gets no answer within the send timeout is queued, then delivered once the backend answers', async ({
  page,
  allowConsoleError,
}) => {
  test.setTimeout(60_000)
  allowConsoleError(/ERR_FAILED|ERR_ABORTED/)
  let calls = 0
  await page.route(INSERT_URL, async (route) => {
    calls += 1
    // The first request hangs: no answer, no error, as on a stalled mobile link.
    if (calls === 1) return new Promise<void>(() => {})
    return route.continue()
  })
  const inserts = recordInserts(page)
  await openContactPage(page)
  const shownToasts = await recordToasts(page)
  await fillAndSend(page, values)

  await expect(page.getByText(formCopy.stillSending)).toBeVisible({ timeout: 8_000 })
  await expect(page.getByRole('button', { name: formCopy.sending })).toBeDisabled()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 35_000 })
  // "Saved on this device" came first; "Message Sent Securely" replaces it about the same message,
  // which can be within a moment once the retry gets through.
  const titles = (await shownToasts()).map((text) =>
    text.includes(submitToasts.queued.title)
      ? 'queued'
      : text.includes(submitToasts.sent.title)
        ? 'sent'
        : text,
  )
  expect(titles.filter((title) => title === 'queued' || title === 'sent')).toEqual([
    'queued',
    'sent',
  ])
  expect(new Set(inserts.map((row) => row.id)).size).toBe(1)
  expect(await submissionsWithId(inserts[0]!.id)).toHaveLength(1)
})

test('a refusal by the real database shows a human message and keeps every value', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/Contact submission failed|status of 4\d\d/)
  // The database, not the form, must refuse: an armor it does not accept.
  await refuseInserts(page, { sealed: 'plain text pretending to be sealed' })
  const inserts = recordInserts(page)
  await send(page)

  const failed = toast(page, submitToasts.failed.title)
  await expect(failed).toContainText(failureMessages.notAccepted)
  await expect(failed).not.toContainText(RAW)
  await expectFormValues(page, values)
  expect(await submissionsWithId(inserts[0]!.id)).toEqual([])
})

/** Holds the crypto chunk (which a first visit on a poor link may still be downloading at Send) back until the test lets it through (or for ever). */
async function holdSealer(page: Page): Promise<() => void> {
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(SEALER_CHUNK, async (route) => {
    await released
    // The page may be gone by then (a chunk held for the whole test).
    await route.continue().catch(() => undefined)
  })
  return release
}

test('while the encryption code is still loading, the form says so and never that the message is already encrypted; then it is sent', async ({
  page,
}) => {
  const release = await holdSealer(page)
  const inserts = recordInserts(page)
  await send(page)

  // Longer than the 4 s after which a slow send gets its line.
  await page.waitForTimeout(5_000)
  await expect(page.getByText(formCopy.stillSending)).toBeHidden()
  await expect(page.getByText(formCopy.stillEncrypting)).toBeVisible()
  await expect(page.getByRole('button', { name: formCopy.sending })).toBeDisabled()
  expect(inserts).toEqual([])

  release()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  await expect(page.getByText(formCopy.stillEncrypting)).toBeHidden()
  expect(await submissionsWithId(inserts[0]!.id)).toHaveLength(1)
})

test('encryption code that has not loaded by the deadline: a sentence, every value kept, nothing sent or stored', async ({
  page,
  allowConsoleError,
}) => {
  test.setTimeout(60_000)
  allowConsoleError(/Contact submission failed/)
  await holdSealer(page)
  const inserts = recordInserts(page)
  await send(page)

  const failed = toast(page, submitToasts.failed.title)
  await expect(failed).toContainText(submitToasts.notSealedInTime, { timeout: 25_000 })
  await expectFormValues(page, values)
  await expect(contactForm(page).submit).toBeEnabled()
  await expect(page.getByText(formCopy.stillEncrypting)).toBeHidden()
  expect(inserts).toEqual([])
  expect(await outboxRecords(page)).toEqual([])
})
