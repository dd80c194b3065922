import { randomUUID } from 'node:crypto'
import type { Page, Request } from '@playwright/test'
import pg from 'pg'
import { copy } from '../../src/inbox/content/copy'
import { sealSubmission } from '../../src/features/contact/sealing/seal-submission'
import { buildDocument } from '../../src/shared/submission/sealed-document'
import { ensureDevIdentity } from '../../supabase/local/dev-identity'
import { axeViolations } from '../support/axe'
import { submissionsWithId } from '../support/backend-db'
import { indexedDbContents, webStorageContents } from '../support/offline'
import { E2E_BACKEND_DIR, E2E_DB_URL, E2E_INBOX_URL } from '../support/ports'
import { PHONE } from '../support/site'
import { firstVisit, inquiryEntry } from '../support/staff-inbox'
import { expect, test } from '../support/strict-page'

/**
 * Triage in the staff inbox (issue 25, item 5), at 375 px against the real local backend: rows
 * with their reference and their status and due time as two facts, the search over the opened
 * inquiries that never leaves the device, the filters, and "Completed" that asks first and says
 * when the inquiry will be deleted. And the first screen, prerendered (item 6).
 */

type Seeded = { id: string; name: string }

/**
 * Inquiries sealed to the development identity as the public form seals them, stored with the
 * ages and statuses given (the database stamps the times), all named after `token`.
 */
async function seed(
  token: string,
  rows: { label: string; hoursAgo: number; status?: string }[],
): Promise<Seeded[]> {
  const { recipient } = await ensureDevIdentity(E2E_BACKEND_DIR)
  const client = new pg.Client({ connectionString: E2E_DB_URL })
  await client.connect()
  try {
    const seeded: Seeded[] = []
    for (const { label, hoursAgo, status } of rows) {
      const id = randomUUID()
      const name = `${token} ${label}`
      const document = buildDocument(
        {
          name,
          contact: `${label}@example.com`,
          project_type: 'community-building',
          budget: '25k-50k',
          message: `The brief of ${label}.`,
        },
        { id, now: Date.now() - hoursAgo * 3_600_000, userAgent: 'e2e', replyTo: recipient },
      )
      const row = await sealSubmission(document, [recipient])
      await client.query(
        `insert into public.contact_submissions (id, key_id, sealed, mailbox_hash, created_at)
         values ($1, $2, $3, sha256(($1::uuid)::text::bytea), now() - make_interval(mins => $4))`,
        [row.id, row.key_id, row.sealed, Math.round(hoursAgo * 60)],
      )
      if (status) {
        await client.query('update public.contact_submissions set status = $2 where id = $1', [
          id,
          status,
        ])
      }
      seeded.push({ id, name })
    }
    return seeded
  } finally {
    await client.end()
  }
}

/** Every request's address and body, as the page sends them. */
function recordRequests(page: Page): string[] {
  const sent: string[] = []
  page.on('request', (request: Request) =>
    sent.push(`${request.url()}\n${request.postData() ?? ''}`),
  )
  return sent
}

test.use({ viewport: PHONE, hasTouch: true })

test('rows say their reference, status and due time; the search finds a row opened later, on the device only; filters narrow it', async ({
  page,
}) => {
  const token = `triage${randomUUID().slice(0, 8)}`
  // A row handled long ago, far down the list (opened among the last), and beyond the 50 rows
  // the list shows at first: the search must still find it.
  const [fresh, overdue, old, ...more] = await seed(token, [
    { label: 'fresh', hoursAgo: 0.5 },
    { label: 'overdue', hoursAgo: 26.5 },
    { label: 'zebra-oldest', hoursAgo: 24 * 80, status: 'responded' },
    ...Array.from({ length: 55 }, (_, index) => ({
      label: `filler${index}`,
      hoursAgo: 2 + index,
      status: 'engaged',
    })),
  ])
  const sent = recordRequests(page)
  await firstVisit(page)
  await expect(page.getByTestId('list-count')).toHaveText(/^\d+ inquiries$/, { timeout: 30_000 })

  const row = (name: string) => page.locator('ul.inquiries > li').filter({ hasText: name })
  await expect(row(fresh!.name)).toContainText(copy.list.reference(fresh!.id.slice(0, 8)))
  await expect(row(fresh!.name).getByTestId('due')).toHaveText(/^New · due in 2[23] h$/)
  await expect(row(overdue!.name).getByTestId('due')).toHaveText(/^Overdue by 2 h$/)
  await expect(page.locator('ul.inquiries > li')).toHaveCount(50)
  await expect(row(old!.name)).toHaveCount(0)

  // The search: a word from the oldest row's brief, typed key by key as a person types.
  const query = 'zebra-oldest'
  await page.getByLabel(copy.list.search).pressSequentially(query)
  await expect(page.locator('ul.inquiries > li')).toHaveCount(1)
  await expect(row(old!.name)).toHaveCount(1)
  await expect(page.getByTestId('list-count')).toHaveText(/^1 of \d+ inquiries$/)

  // The token: every seeded row; with the filters, fewer.
  await page.getByLabel(copy.list.search).fill(token)
  await expect(page.getByTestId('list-count')).toHaveText(/^58 of \d+ inquiries$/)
  await expect(page.getByRole('button', { name: copy.list.showMore(8) })).toBeVisible()
  await page.getByLabel(copy.list.statusFilter).selectOption('new')
  await expect(page.locator('ul.inquiries > li')).toHaveCount(2)
  await page.getByLabel(copy.list.overdueOnly).check()
  await expect(page.locator('ul.inquiries > li')).toHaveCount(1)
  await expect(row(overdue!.name)).toHaveCount(1)
  await page.getByLabel(copy.list.statusFilter).selectOption('responded')
  await expect(page.getByText(copy.list.noMatch)).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  // Reading a row and coming back keeps the search and filters.
  await page.getByLabel(copy.list.overdueOnly).uncheck()
  await page.getByLabel(copy.list.statusFilter).selectOption('all')
  await page.getByLabel(copy.list.search).fill(query)
  await inquiryEntry(page, old!.name).click()
  await page.getByRole('button', { name: copy.detail.back }).click()
  await expect(page.getByLabel(copy.list.search)).toHaveValue(query)
  await expect(page.locator('ul.inquiries > li')).toHaveCount(1)

  // The query never left the device: no request, storage, title or address holds it.
  for (const word of [query, token]) {
    expect(sent.filter((request) => request.includes(word))).toEqual([])
    expect(await webStorageContents(page)).not.toContain(word)
    expect(await indexedDbContents(page)).not.toContain(word)
    expect(await page.title()).not.toContain(word)
    expect(page.url()).not.toContain(word)
  }
  void more
})

test('"Completed" asks first, says when the inquiry will be deleted, and Cancel leaves it as it was; by keyboard', async ({
  page,
}) => {
  const token = `close${randomUUID().slice(0, 8)}`
  const [target] = await seed(token, [{ label: 'to-close', hoursAgo: 1 }])
  await firstVisit(page)
  await page.getByLabel(copy.list.search).fill(token)
  await inquiryEntry(page, target!.name).click()

  await page.getByRole('button', { name: copy.statuses.completed, exact: true }).click()
  const confirm = page.getByRole('button', { name: copy.detail.confirm(copy.statuses.completed) })
  await expect(confirm).toBeFocused()
  await expect(page.locator('#confirm-close')).toContainText('deletes this inquiry')
  expect(await axeViolations(page)).toEqual([])
  // Nothing changed yet.
  expect((await submissionsWithId(target!.id))[0]?.status).toBe('new')
  await page.getByRole('button', { name: copy.detail.cancel }).click()
  await expect(confirm).toHaveCount(0)
  expect((await submissionsWithId(target!.id))[0]?.status).toBe('new')

  // By keyboard: Completed, then the confirmation (focused) with Enter.
  await page.getByRole('button', { name: copy.statuses.completed, exact: true }).focus()
  await page.keyboard.press('Enter')
  await expect(confirm).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('status')).toHaveText(copy.statuses.completed)
  await expect(page.getByText(/^Closed: the database deletes it by /)).toBeVisible()
  await expect.poll(async () => (await submissionsWithId(target!.id))[0]?.status).toBe('completed')
})

test('the first screen is in the HTML: it paints with no JavaScript, and the app hydrates it in place; before then "Sign in" sends nothing', async ({
  page,
  browser,
  allowConsoleError,
}) => {
  // The failed sign-in at the end: its status in the console, and the inbox's own line.
  allowConsoleError(/inbox: sign-in failed|status of 4\d\d/)
  // Without JavaScript at all: the sign-in screen is there, and its button says it cannot send.
  const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE })
  const bare = await noJs.newPage()
  await bare.goto(E2E_INBOX_URL)
  await expect(bare.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
  await expect(bare.getByLabel(copy.signIn.email)).toBeVisible()
  await expect(bare.getByRole('button', { name: copy.signIn.submit })).toBeDisabled()
  await expect(bare.locator('script:not([src])')).toHaveCount(0)
  await noJs.close()

  // With it, the app's code held back: the heading shows first, and the element painted is the
  // one the app then runs (hydrated, not drawn again).
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.goto(E2E_INBOX_URL, { waitUntil: 'commit' })
  await expect(page.getByRole('heading', { name: copy.signIn.heading })).toBeVisible()
  await page.evaluate(() => {
    ;(window as unknown as { painted: Element | null }).painted = document.querySelector('h1')
  })
  // Before the app runs, a person may type; "Sign in" is disabled, and Enter sends nothing: no
  // request, no address with the password in it, no CSP violation (the harness fails on one).
  const signIn = page.getByRole('button', { name: copy.signIn.submit })
  await page.getByLabel(copy.signIn.email).fill('nobody@example.com')
  await page.getByLabel(copy.signIn.password).fill('not a password')
  await expect(signIn).toBeDisabled()
  const navigations: string[] = []
  page.on('framenavigated', (frame) => navigations.push(frame.url()))
  const sent: string[] = []
  page.on('request', (request) => sent.push(`${request.url()}\n${request.postData() ?? ''}`))
  await page.getByLabel(copy.signIn.password).press('Enter')
  release()
  // Hydrated: React has attached itself to the very node that was painted.
  await page.waitForFunction(() => {
    const painted = (window as unknown as { painted: Element | null }).painted
    return painted !== null && Object.keys(painted).some((key) => key.startsWith('__reactFiber'))
  })
  await expect(signIn).toBeEnabled()
  expect(navigations).toEqual([])
  expect(page.url()).toBe(`${E2E_INBOX_URL}/`)
  // What was typed before is still there, and the form answers (a sentence, from the app); the
  // heading is still the node painted.
  await expect(page.getByLabel(copy.signIn.email)).toHaveValue('nobody@example.com')
  await expect(page.getByLabel(copy.signIn.password)).toHaveValue('not a password')
  expect(sent.filter((request) => /not(\+|%20| )a(\+|%20| )password/.test(request))).toEqual([])
  await signIn.click()
  await expect(page.getByRole('alert')).toHaveText(copy.signIn.failed)
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { painted: Element | null }).painted === document.querySelector('h1'),
    ),
  ).toBe(true)
})
