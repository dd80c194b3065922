import type { Browser, Page } from '@playwright/test'
import { submitToasts } from '../../src/features/contact/contact-copy'
import { panelCopy } from '../../src/features/contact/inquiry-panel-copy'
import { conversationCopy, repliesCopy } from '../../src/features/replies/replies-copy'
import { generateReceipt } from '../../src/shared/conversation/receipt'
import { axeViolations } from '../support/axe'
import { submissionsNamed, uniqueName } from '../support/backend-db'
import { fillAndSend, openContactPage, toast } from '../support/contact-form'
import {
  ageDecrypt,
  insertAgencyReply,
  mailboxHashOf,
  readPanel,
  receiptKeys,
  threadMessages,
  watchFreshPage,
} from '../support/conversation'
import { coveredControls } from '../support/fixed-layers'
import {
  cacheStorageContents,
  goOffline,
  goOnline,
  indexedDbContents,
  openContactPageOffline,
  outboxRecords,
  webStorageContents,
} from '../support/offline'
import { PHONE } from '../support/site'
import { storeInquiry } from '../support/staff-conversation'
import { expect, test } from '../support/strict-page'

/**
 * The sealed conversation from the visitor's side, against the real local backend: the receipt
 * made at Send, the panel, /replies in a fresh browser, an agency reply sealed as the inbox seals
 * it, a follow-up, and what never appears in clear.
 */

test.use({ viewport: PHONE })

const marker = () => `MK${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`

/** Every request's address and body, as the page sends them. */
function recordTraffic(page: Page): { urls: string[]; bodies: string[] } {
  const traffic = { urls: [] as string[], bodies: [] as string[] }
  page.on('request', (request) => {
    traffic.urls.push(request.url())
    traffic.bodies.push(request.postData() ?? '')
  })
  return traffic
}

/** What must never be readable: each marker, the receipt (and each way it could be written). */
function expectNowhere(places: Record<string, string>, secrets: string[]): void {
  for (const [where, text] of Object.entries(places)) {
    for (const secret of secrets)
      expect(text, `${where} holds a secret in clear`).not.toContain(secret)
  }
}

/** Sends an inquiry as an alias, with `brief` as the brief, and waits for the panel. */
async function sendAsAlias(page: Page, name: string, brief: string) {
  await fillAndSend(page, { name, contact: '@alias_only', message: brief })
  await expect(page.getByRole('region', { name: panelCopy.heading })).toBeVisible()
  return readPanel(page)
}

/** /replies in a browser context of its own, the receipt typed and opened. */
async function openRepliesFresh(browser: Browser, baseURL: string | undefined, receipt: string) {
  const context = await browser.newContext({ baseURL, viewport: PHONE })
  const fresh = await context.newPage()
  const problems = watchFreshPage(fresh)
  const traffic = recordTraffic(fresh)
  await fresh.goto('/replies')
  const field = fresh.getByRole('textbox', { name: repliesCopy.receiptLabel })
  await expect(field).toBeEnabled()
  await field.fill(receipt)
  await fresh.getByRole('button', { name: repliesCopy.open }).click()
  return { context, fresh, problems, traffic }
}

test('an alias sends; the panel shows the reference and the receipt; a fresh browser reads the inquiry and the reply, writes back; nothing in clear', async ({
  page,
  browser,
  baseURL,
}) => {
  const traffic = recordTraffic(page)
  const name = uniqueName('Alias')
  const briefMarker = marker()
  const brief = `Launch plan ${briefMarker}, quietly.`
  await openContactPage(page)
  const { reference, receipt } = await sendAsAlias(page, name, brief)

  // The spec's toast and the cleared form stay; the panel says sent, and what happens next.
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  const panel = page.getByRole('region', { name: panelCopy.heading })
  await expect(panel).toContainText(panelCopy.status.sent)
  await expect(panel).toContainText(panelCopy.next(reference)[2]!)
  // The reference is the row's: the first 8 characters of its id; the row keeps only the hash.
  const [row] = await submissionsNamed(name)
  expect(row?.id.startsWith(reference)).toBe(true)
  const keys = await receiptKeys(receipt)
  expect(await mailboxHashOf(row!.id)).toBe(keys.mailboxHash)
  expect(receipt.split(' ')).toHaveLength(12)
  expect(await axeViolations(page, 'main')).toEqual([])
  // The toast is transient (its share of a phone's screen is phone-fixed-share.spec's): closed if
  // it is still up, so what is measured is the page's own fixed layers over the panel and the
  // form. Left open, the check raced the toast's few seconds on screen.
  const sentToast = toast(page, submitToasts.sent.title)
  await sentToast
    .getByRole('button', { name: 'Close notification' })
    .click({ timeout: 2_000 })
    .catch(() => 'already gone')
  await expect(sentToast).toBeHidden()
  expect(await coveredControls(page)).toEqual([])

  // The agency replies as the inbox does: sealed to the reply_to inside the inquiry.
  const replyMarker = marker()
  await insertAgencyReply(row!.id, `Thanks, we can help. ${replyMarker}`)

  // A fresh browser: no storage, no service worker, only the receipt typed.
  const {
    context,
    fresh,
    problems,
    traffic: freshTraffic,
  } = await openRepliesFresh(browser, baseURL, receipt)
  await expect(
    fresh.getByRole('heading', { name: conversationCopy.heading(reference) }),
  ).toBeVisible()
  const thread = fresh.getByRole('list', { name: conversationCopy.threadLabel })
  await expect(thread.getByRole('listitem')).toHaveCount(2)
  await expect(thread.getByRole('listitem').nth(0)).toContainText(brief)
  await expect(thread.getByRole('listitem').nth(1)).toContainText(replyMarker)
  expect(await axeViolations(fresh, 'main')).toEqual([])
  expect(await coveredControls(fresh)).toEqual([])

  // Writing back: sealed in the browser, stored, opened by the agency and by the receipt alone.
  const followUpMarker = marker()
  await fresh.getByLabel(conversationCopy.messageLabel).fill(`One more thing: ${followUpMarker}`)
  await fresh.getByRole('button', { name: conversationCopy.send }).click()
  await expect(fresh.getByRole('status').filter({ hasText: conversationCopy.sent })).toBeVisible()
  await expect(thread.getByRole('listitem')).toHaveCount(3)
  const stored = (await threadMessages(row!.id)).filter(
    (message) => message.direction === 'visitor',
  )
  expect(stored).toHaveLength(1)
  for (const identity of [undefined, keys.identityFile]) {
    const opened = JSON.parse(await ageDecrypt(stored[0]!.sealed, identity)) as Record<
      string,
      unknown
    >
    expect(opened).toMatchObject({ v: 1, from: 'visitor', inquiry_id: row!.id, attachments: [] })
    expect(opened.body).toContain(followUpMarker)
  }

  // Nothing readable anywhere: not the brief, the reply, the follow-up, nor the receipt or its key.
  const secrets = [briefMarker, replyMarker, followUpMarker, receipt, keys.identity]
  for (const [target, seen] of [
    [page, traffic],
    [fresh, freshTraffic],
  ] as const) {
    expectNowhere(
      {
        'a request body': seen.bodies.join('\n'),
        'an address': seen.urls.join('\n'),
        'web storage': await webStorageContents(target),
        IndexedDB: await indexedDbContents(target),
        'Cache Storage': await cacheStorageContents(target),
        'the title': await target.title(),
      },
      secrets,
    )
  }
  // The mailbox token goes to the two calls only, in their bodies.
  expect(freshTraffic.urls.join('\n')).not.toContain(keys.mailboxToken)
  expect(problems).toEqual([])
  await context.close()
})

test('a reply written with the public keys alone shows as not from the agency on /replies, and its text nowhere', async ({
  browser,
  baseURL,
}) => {
  const inquiry = await storeInquiry({
    name: uniqueName('Forged'),
    contact: '@forged_reply',
    message: 'Our launch, quietly.',
  })
  const genuine = marker()
  const forged = marker()
  // A genuine reply, then one the service role inserts, sealed to the visitor's reply_to and the
  // agency's key (both readable from what it holds and the site), signed with a key of its own.
  await insertAgencyReply(inquiry.id, `Thursday at ten. ${genuine}`)
  await insertAgencyReply(inquiry.id, `Pay the deposit here. ${forged}`, { forged: true })

  const { context, fresh, problems } = await openRepliesFresh(browser, baseURL, inquiry.words)
  const thread = fresh.getByRole('list', { name: conversationCopy.threadLabel })
  await expect(thread.getByRole('listitem')).toHaveCount(3)
  await expect(thread.getByRole('listitem').nth(1)).toContainText(genuine)
  const shown = thread.getByRole('listitem').nth(2)
  await expect(shown).toContainText(conversationCopy.notFrom.agency)
  await expect(shown).toContainText(conversationCopy.unsigned.agency)
  await expect(fresh.locator('body')).not.toContainText(forged)
  // The genuine reply is in its place: nothing is announced missing or out of order.
  await expect(fresh.getByRole('list', { name: conversationCopy.orderLabel })).toHaveCount(0)
  expect(problems).toEqual([])
  await context.close()
})

test('a wrong receipt gets a sentence, and guessing from one network meets the limit', async ({
  page,
  allowConsoleError,
}) => {
  // Guesses from one network of their own (the limit counts per /24), whatever else ran before.
  const network = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`
  await page.route('**/rest/v1/rpc/read_thread', (route) =>
    route.continue({ headers: { ...route.request().headers(), 'cf-connecting-ip': network } }),
  )
  allowConsoleError(/status of 429/)
  await page.goto('/replies')
  const field = page.getByRole('textbox', { name: repliesCopy.receiptLabel })
  const open = page.getByRole('button', { name: repliesCopy.open })
  await expect(field).toBeEnabled()

  // Caught in the browser, before any request.
  await field.fill('twelve words are needed here')
  await open.click()
  await expect(page.getByText(repliesCopy.problems.length)).toBeVisible()
  await field.fill(`${generateReceipt().split(' ').slice(0, 11).join(' ')} zzzz`)
  await open.click()
  await expect(page.getByText(repliesCopy.problems['unknown-word'])).toBeVisible()

  // Well-formed receipts nobody holds: each one a miss, until the network's limit answers 429.
  let limited = false
  for (let guess = 0; guess < 12 && !limited; guess += 1) {
    await field.fill(generateReceipt())
    await open.click()
    const said = page.getByText(repliesCopy.noMatch).or(page.getByText(/Try again after/))
    await expect(said).toBeVisible()
    limited = await page.getByText(/Try again after/).isVisible()
    if (!limited) {
      await expect(page.getByText(repliesCopy.noMatch)).toBeVisible()
      await field.fill('')
    }
  }
  expect(limited).toBe(true)
  await expect(
    page.getByText(
      /^Too many receipts that open nothing were tried from this network\. Try again after /,
    ),
  ).toBeVisible()
  expect(await axeViolations(page, 'main')).toEqual([])
})

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' })

  test('an inquiry sent offline waits on the device with its mailbox hash, is sent when the connection returns, and a follow-up queued offline follows it', async ({
    page,
    context,
  }) => {
    await openContactPageOffline(page, context)
    const name = uniqueName('Offline alias')
    const { reference, receipt } = await sendAsAlias(page, name, `Offline brief ${marker()}`)
    const panel = page.getByRole('region', { name: panelCopy.heading })
    await expect(panel).toContainText(panelCopy.status.waiting)
    const keys = await receiptKeys(receipt)
    // The outbox holds exactly the row: its mailbox hash, never the receipt or a key.
    const [queued] = await outboxRecords(page)
    expect(queued).toMatchObject({ v: 1, kind: 'inquiry', mailbox_hash: `\\x${keys.mailboxHash}` })
    expectNowhere({ outbox: JSON.stringify(await outboxRecords(page)) }, [
      receipt,
      keys.identity,
      keys.mailboxToken,
    ])

    await goOnline(context)
    await expect(panel).toContainText(panelCopy.status.sent, { timeout: 15_000 })
    const [row] = await submissionsNamed(name)
    expect(row?.id.startsWith(reference)).toBe(true)
    expect(await mailboxHashOf(row!.id)).toBe(keys.mailboxHash)

    // The follow-up, written while offline on /replies: queued in the same outbox, sent later.
    await page.getByRole('link', { name: panelCopy.repliesLink }).click()
    await page.getByRole('textbox', { name: repliesCopy.receiptLabel }).fill(receipt)
    await page.getByRole('button', { name: repliesCopy.open }).click()
    await expect(
      page.getByRole('heading', { name: conversationCopy.heading(reference) }),
    ).toBeVisible()
    await goOffline(context)
    const followUp = `Offline follow-up ${marker()}`
    await page.getByLabel(conversationCopy.messageLabel).fill(followUp)
    await page.getByRole('button', { name: conversationCopy.send }).click()
    await expect(
      page.getByRole('status').filter({ hasText: conversationCopy.queued }),
    ).toBeVisible()
    const [message] = await outboxRecords(page)
    expect(message).toMatchObject({ v: 1, kind: 'message', mailbox_token: keys.mailboxToken })
    expectNowhere({ outbox: JSON.stringify(message) }, [receipt, keys.identity, followUp])

    await goOnline(context)
    await expect
      .poll(async () => (await threadMessages(row!.id)).length, { timeout: 15_000 })
      .toBe(1)
    const [stored] = await threadMessages(row!.id)
    expect(JSON.parse(await ageDecrypt(stored!.sealed, keys.identityFile))).toMatchObject({
      body: followUp,
    })
    // Delivered: the token leaves the device with the message.
    await expect.poll(async () => (await outboxRecords(page)).length).toBe(0)
  })
})
