import { randomUUID } from 'node:crypto'
import type { Page, Request } from '@playwright/test'
import { copy } from '../../src/inbox/content/copy'
import { sealSubmission } from '../../src/features/contact/sealing/seal-submission'
import { buildDocument } from '../../src/shared/submission/sealed-document'
import { NIGHT_OWL } from '../../src/shared/submission/submission-test-fixtures'
import { ensureDevIdentity } from '../../supabase/local/dev-identity'
import { axeViolations } from '../support/axe'
import { submissionsWithId, withE2eDatabase } from '../support/backend-db'
import { indexedDbContents, webStorageContents } from '../support/offline'
import { E2E_BACKEND_DIR } from '../support/ports'
import { PHONE } from '../support/site'
import { firstVisit, inquiryEntry } from '../support/staff-inbox'
import { expect, test } from '../support/strict-page'

/**
 * Triage in the staff inbox (issue 25, item 5), at 375 px against the real local backend: rows
 * with their reference and their status and due time as two facts, the search over the opened
 * inquiries that never leaves the device, the filters, and "Completed" that asks first and says
 * when the inquiry will be deleted.
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
  return withE2eDatabase(async (client) => {
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
        {
          id,
          now: Date.now() - hoursAgo * 3_600_000,
          userAgent: 'e2e',
          replyTo: recipient,
          signingKey: NIGHT_OWL.signing_key,
        },
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
  })
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
  await expect(page.getByTestId('list-count')).toHaveText(/^58( of \d+)? inquiries$/)
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
  // Nobody answered it: closing is not a response, and names nobody as having responded.
  const [closed] = await submissionsWithId(target!.id)
  expect([closed?.responded_at, closed?.responded_by]).toEqual([null, null])
  await expect(page.getByTestId('responded')).toHaveCount(0)
})
