import type { Page } from '@playwright/test'
import { copy } from '../../src/inbox/content/copy'
import { firstMessage } from '../../src/inbox/features/conversation/channel-links'
import { ENV_DEFAULTS } from '../../src/lib/env'
import { axeViolations } from '../support/axe'
import { submissionsWithId, uniqueName } from '../support/backend-db'
import { AGE_ARMOR } from '../support/contact-form'
import {
  addVisitorMessage,
  ageDecrypt,
  agencyKey,
  messagesOf,
  replaceInquiry,
  storeInquiry,
} from '../support/staff-conversation'
import { insertAgencyReply } from '../support/conversation'
import { coveredControls } from '../support/fixed-layers'
import { goOffline, goOnline, keptByPage } from '../support/offline'
import { E2E_INBOX_URL } from '../support/ports'
import { PHONE, sidewaysOverflow } from '../support/site'
import { firstVisit, inquiryEntry } from '../support/staff-inbox'
import { expect, test } from '../support/strict-page'

/**
 * The staff side of the sealed conversation (issue 24), at 375 px against the real local backend:
 * an inquiry sealed in the test as the site seals one (its reply recipient from a receipt made
 * here), read, answered with a sealed reply that the agency's key and the receipt both open with
 * stock `age`, and brought back to the top when the visitor writes again.
 */

test.use({ viewport: PHONE, hasTouch: true })

const marker = (label: string) =>
  `${label}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`

/** axe, fixed layers and sideways overflow on the screen as it is. */
async function screenProblems(page: Page, screen: string): Promise<string[]> {
  return [
    ...(await axeViolations(page)),
    ...(await coveredControls(page)),
    ...(await sidewaysOverflow(page, screen)),
  ]
}

// By role: a controlled textarea's text is part of its label's text, so getByLabel would stop
// matching once something is typed.
const replyField = (page: Page) =>
  page.getByRole('textbox', { name: copy.conversation.reply, exact: true })
const sendButton = (page: Page) => page.getByRole('button', { name: copy.conversation.send })

test('staff read a sealed inquiry by its reference, reply sealed to the visitor and the agency, and a visitor’s new message brings it back on top; nothing typed leaves the device in clear', async ({
  page,
  context,
}) => {
  const name = uniqueName('Thread Reader')
  const inquiry = await storeInquiry({
    name,
    contact: '+44 7700 900123',
    message: 'A launch in spring.',
  })
  const replyMarker = marker('RPLY')
  const visitorMarker = marker('VSTR')

  // Everything the inbox's page sends from here on.
  const sent: string[] = []
  context.on('request', (request) =>
    sent.push(`${request.method()} ${request.url()}\n${request.postData() ?? ''}`),
  )

  const { email } = await firstVisit(page)
  const entry = inquiryEntry(page, name)
  await expect(entry).toContainText(copy.list.reference(inquiry.reference))
  await entry.click()
  await expect(page.getByRole('heading', { name })).toBeVisible()
  await expect(page.getByTestId('reference')).toHaveText(inquiry.reference)
  await expect(page.getByText('A launch in spring.')).toBeVisible()
  await expect(sendButton(page)).toBeVisible()

  // Answer on WhatsApp: the number, with a greeting that quotes the reference and nothing else.
  const whatsapp = page.getByRole('link', { name: copy.channels.whatsapp })
  const greeting = firstMessage(ENV_DEFAULTS.VITE_AGENCY_NAME, inquiry.reference).body
  await expect(whatsapp).toHaveAttribute(
    'href',
    `https://wa.me/447700900123?text=${encodeURIComponent(greeting)}`,
  )
  const inquiryScreen = await screenProblems(page, 'one inquiry')

  // The reply, sealed on the device and stored.
  await replyField(page).fill(`Thanks! Thursday at ten? ${replyMarker}`)
  await sendButton(page).click()
  await expect(page.getByRole('status')).toHaveText(copy.conversation.sent)
  await expect(replyField(page)).toHaveValue('')
  const ourReply = page.locator('.message.agency')
  await expect(ourReply).toContainText(copy.conversation.fromAgency(email))
  await expect(ourReply).toContainText(replyMarker)
  await expect(page.getByTestId('status')).toHaveText(copy.statuses.responded)
  await expect(page.getByTestId('responded')).toContainText(email)

  const [message] = await messagesOf(inquiry.id)
  expect(message).toMatchObject({ direction: 'agency', author_email: email })
  expect(message?.sealed).toMatch(AGE_ARMOR)
  expect(message?.sealed).not.toContain(replyMarker)
  // Stock age opens it with the agency's key and, alone, with the receipt's identity.
  for (const identity of [(await agencyKey()).identity, inquiry.receipt?.identity ?? '']) {
    const opened = JSON.parse(await ageDecrypt(message?.sealed ?? '', identity)) as Record<
      string,
      unknown
    >
    expect(opened).toMatchObject({
      v: 1,
      attachments: [],
      id: message?.id,
      inquiry_id: inquiry.id,
      from: 'agency',
      body: `Thanks! Thursday at ten? ${replyMarker}`,
    })
  }
  const [answered] = await submissionsWithId(inquiry.id)
  expect(answered).toMatchObject({ status: 'responded', responded_by: email })
  expect(answered?.responded_at).not.toBeNull()

  // The visitor writes again: back at the top, unanswered, with the message in the thread.
  await addVisitorMessage(inquiry, `Thursday suits me. ${visitorMarker}`)
  await page.getByRole('button', { name: copy.detail.back }).click()
  await page.getByRole('button', { name: copy.list.refresh }).click()
  // On top with every other inquiry waiting for an answer (an earlier run's, waiting longer, may
  // come before it), above every inquiry that is not.
  const rows = page.locator('.inquiries li')
  await expect(rows.filter({ hasText: name })).toContainText(copy.list.awaiting)
  const texts = await rows.allTextContents()
  const ours = texts.findIndex((text) => text.includes(name))
  expect(ours).toBeGreaterThanOrEqual(0)
  expect(texts.slice(0, ours + 1).every((text) => text.includes(copy.list.awaiting))).toBe(true)
  const listScreen = await screenProblems(page, 'the list')
  await inquiryEntry(page, name).click()
  await expect(page.locator('.message.visitor').last()).toContainText(visitorMarker)
  const [, visitorRow] = await messagesOf(inquiry.id)
  expect(visitorRow).toMatchObject({ direction: 'visitor', author_email: null })

  expect({ inquiryScreen, listScreen }).toEqual({ inquiryScreen: [], listScreen: [] })

  // Neither the reply nor the visitor's message is anywhere in clear on the inbox's origin.
  const kept = { requests: sent.join('\n'), ...(await keptByPage(page)) }
  expect(kept.requests).toContain('/rest/v1/contact_messages')
  for (const [where, text] of Object.entries(kept)) {
    expect(text, `${where} holds the reply`).not.toContain(replyMarker)
    expect(text, `${where} holds the visitor's message`).not.toContain(visitorMarker)
  }
  expect(page.url()).toBe(`${E2E_INBOX_URL}/inquiries/${inquiry.id}`)
})

test('a reply whose answer was lost is sent again under the same id and stored once; offline it is refused with a sentence and stays in the field', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(/status of (409|503)|inbox: sending the reply failed/)
  const name = uniqueName('Retry Reader')
  const inquiry = await storeInquiry({ name, contact: '@retry_reader', message: 'Try twice.' })
  await firstVisit(page)
  await inquiryEntry(page, name).click()
  await expect(sendButton(page)).toBeVisible()

  // Telegram takes no text in its link: the greeting is there to copy.
  await expect(page.getByRole('link', { name: copy.channels.telegram })).toHaveAttribute(
    'href',
    'https://t.me/retry_reader',
  )
  await expect(page.getByRole('button', { name: copy.channels.copyFirst })).toBeVisible()

  await sendButton(page).click()
  await expect(page.getByRole('alert')).toHaveText(copy.conversation.empty)

  await goOffline(context)
  await replyField(page).fill('Sent once, whatever happens.')
  await sendButton(page).click()
  await expect(page.getByRole('alert')).toHaveText(copy.conversation.offline)
  await expect(replyField(page)).toHaveValue('Sent once, whatever happens.')
  await goOnline(context)

  // The database stores the reply, but its answer never reaches the page.
  const ids: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/contact_messages') && request.method() === 'POST') {
      ids.push((JSON.parse(request.postData() ?? '{}') as { id: string }).id)
    }
  })
  await page.route('**/rest/v1/contact_messages', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback()
    await route.fetch()
    await route.fulfill({ status: 503, contentType: 'application/json', body: '{}' })
  })
  await sendButton(page).click()
  await expect(page.getByRole('alert')).toHaveText(copy.conversation.failed)
  await expect(replyField(page)).toHaveValue('Sent once, whatever happens.')
  await page.unroute('**/rest/v1/contact_messages')

  await sendButton(page).click()
  await expect(page.getByRole('status')).toHaveText(copy.conversation.sent)
  expect(ids).toHaveLength(2)
  expect(ids[0]).toBe(ids[1])
  const stored = await messagesOf(inquiry.id)
  expect(stored.map((row) => row.id)).toEqual([ids[0]])
  await expect(page.locator('.message.agency')).toHaveCount(1)
})

test('the visitor’s email opens with a first message that quotes the reference and nothing else', async ({
  page,
}) => {
  const name = uniqueName('Mail Reader')
  const inquiry = await storeInquiry({
    name,
    contact: 'mail.reader@example.com',
    message: 'By email.',
  })
  await firstVisit(page)
  await inquiryEntry(page, name).click()
  const { subject, body } = firstMessage(ENV_DEFAULTS.VITE_AGENCY_NAME, inquiry.reference)
  await expect(page.getByRole('link', { name: copy.channels.email })).toHaveAttribute(
    'href',
    `mailto:mail.reader@example.com?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`,
  )
  expect(await screenProblems(page, 'an inquiry answered by email')).toEqual([])
})

test('an inquiry replaced after this device opened it is shown as replaced, loudly, and takes no reply', async ({
  page,
}) => {
  const name = uniqueName('Pinned')
  const inquiry = await storeInquiry({ name, contact: '@pinned', message: 'The genuine brief.' })
  await firstVisit(page)
  await expect(inquiryEntry(page, name)).toBeVisible()

  const impostor = uniqueName('Impostor')
  await replaceInquiry(inquiry, { name: impostor, contact: '@impostor', message: 'Reply here.' })
  await page.getByRole('button', { name: copy.list.refresh }).click()
  const row = page.locator(`[data-inquiry="${inquiry.id}"]`)
  await expect(row).toContainText(copy.list.replaced)
  await expect(page.getByText(impostor)).toHaveCount(0)
  await row.click()
  await expect(page.getByRole('alert')).toHaveText(copy.list.replaced)
  await expect(page.getByText('Reply here.')).toHaveCount(0)
  await expect(sendButton(page)).toHaveCount(0)
})

test('a reply the service role inserts without the agency’s signing key shows in the inbox as not from the agency', async ({
  page,
}) => {
  const name = uniqueName('Forged Reply')
  const inquiry = await storeInquiry({ name, contact: '@forged_in_inbox', message: 'A brief.' })
  const forged = marker('FRGD')
  await insertAgencyReply(inquiry.id, `Send the files here instead. ${forged}`, { forged: true })
  await firstVisit(page)
  await inquiryEntry(page, name).click()
  const shown = page.locator('.message.agency')
  await expect(shown).toContainText(copy.conversation.fromNobody)
  await expect(shown).toContainText(copy.conversation.notFromAgency)
  await expect(shown).not.toContainText('staff@example.com')
  await expect(page.getByText(forged)).toHaveCount(0)
})
