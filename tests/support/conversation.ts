import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from '@playwright/test'
import { armor, Encrypter, identityToRecipient } from 'age-encryption'
import { panelCopy } from '../../src/features/contact/inquiry-panel-copy'
import { deriveReceiptKeys, readReceipt, type Receipt } from '../../src/shared/conversation/receipt'
import {
  buildThreadMessage,
  messageHash,
  padThreadMessage,
  parseThreadMessage,
  type ThreadPlace,
} from '../../src/shared/conversation/thread-message'
import { nextPlace, type Side } from '../../src/shared/conversation/thread-order'
import { decryptSealed } from '../../src/shared/crypto/open'
import { agencySigningSeed, asSigningSeed, type SigningSeed } from '../../src/shared/crypto/signing'
import { withE2eDatabase } from './backend-db'
import { openSealed } from './contact-form'
import { HARNESS_CONSOLE_NOTES } from './strict-page'

/**
 * The conversation as the browser tests need it: what the panel shows, a reply inserted the way
 * the inbox does it, the thread's rows, and stock `age` opening them with either identity.
 */

const E2E_DEV_IDENTITY = resolve('node_modules/.cache/e2e-backend/dev-identity.txt')

/** The panel after Send, and what it shows: the reference and the receipt (read as a visitor would). */
export async function readPanel(page: Page): Promise<{ reference: string; receipt: string }> {
  const panel = page.getByRole('region', { name: panelCopy.heading })
  const text = await panel.innerText()
  const reference = /\b([0-9a-f]{8})\b/.exec(text)?.[1]
  // The words are a numbered list under the receipt's heading, read in order without the numbers.
  const words = panel.getByRole('list', { name: panelCopy.receiptHeading }).getByRole('listitem')
  const receipt = (await words.allInnerTexts())
    .map((item) => item.replace(/^\s*\d+\.\s*/, '').trim())
    .join(' ')
  if (!reference || receipt.split(' ').length !== 12)
    throw new Error('the panel shows no reference or no receipt')
  return { reference, receipt }
}

/** The development identity: the agency's key in the e2e build. */
async function agencyIdentity(): Promise<string> {
  const identity = (await readFile(E2E_DEV_IDENTITY, 'utf8'))
    .split('\n')
    .find((line) => line.startsWith('AGE-SECRET-KEY-'))
  if (!identity) throw new Error('no development identity')
  return identity.trim()
}

const agencyRecipient = async () => identityToRecipient(await agencyIdentity())

/**
 * Where `from`'s next message stands in the thread as stored (opened with the agency's key, as the
 * inbox would): so a test's message reads as in order, unless the test means otherwise.
 */
export async function nextPlaceIn(inquiryId: string, from: Side): Promise<ThreadPlace> {
  const identity = await agencyIdentity()
  const placed = []
  for (const row of await threadMessages(inquiryId)) {
    const opened = await decryptSealed(row.sealed, [identity])
    if ('problem' in opened) continue
    const direction = row.direction as Side
    const message = parseThreadMessage(opened.text, { id: row.id, inquiryId, direction })
    placed.push({ ...message, hash: messageHash(message) })
  }
  return nextPlace(placed, from)
}

/**
 * A staff reply as the inbox stores it: a thread message from 'agency', sealed with age to the
 * `reply_to` inside the inquiry (opened with the development identity) and to the agency's key,
 * inserted into contact_messages by the database's owner (as the service role would), naming its
 * author. Returns the message's id.
 */
export async function insertAgencyReply(
  inquiryId: string,
  body: string,
  options: { forged?: boolean } = {},
): Promise<string> {
  const inquiry = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ sealed: string }>(
      'select sealed from public.contact_submissions where id = $1',
      [inquiryId],
    )
    return rows[0]
  })
  if (!inquiry) throw new Error(`no inquiry ${inquiryId}`)
  const document = await openSealed(inquiry.sealed)
  const replyTo = document.reply_to
  if (typeof replyTo !== 'string') throw new Error('the inquiry has no reply_to')
  const id = randomUUID()
  const place = await nextPlaceIn(inquiryId, 'agency')
  const message = buildThreadMessage(body, {
    id,
    inquiryId,
    from: 'agency',
    now: Date.now(),
    place,
  })
  const encrypter = new Encrypter()
  encrypter.addRecipient(replyTo)
  encrypter.addRecipient(await agencyRecipient())
  // Forged: sealed with the public keys alone, as anyone who can write rows could; signed with a
  // key of their own, since without the agency's identity there is no agency signature to make.
  const seed: SigningSeed = options.forged
    ? asSigningSeed(crypto.getRandomValues(new Uint8Array(32)))
    : agencySigningSeed(await agencyIdentity())!
  const plaintext = padThreadMessage(message, seed, (length) => 'A'.repeat(length))
  const sealed = armor.encode(await encrypter.encrypt(plaintext))
  await withE2eDatabase((client) =>
    client.query(
      `insert into public.contact_messages (id, submission_id, direction, sealed, author_email)
       values ($1, $2, 'agency', $3, 'staff@example.com')`,
      [id, inquiryId, sealed],
    ),
  )
  return id
}

export type ThreadRow = { id: string; direction: string; sealed: string; created_at: Date }

/** The thread's messages after the inquiry, oldest first, as stored. */
export function threadMessages(inquiryId: string): Promise<ThreadRow[]> {
  return withE2eDatabase(
    async (client) =>
      (
        await client.query<ThreadRow>(
          `select id, direction, sealed, created_at from public.contact_messages
            where submission_id = $1 order by created_at`,
          [inquiryId],
        )
      ).rows,
  )
}

/** The inquiry's mailbox hash as stored (hex), or null. */
export async function mailboxHashOf(inquiryId: string): Promise<string | null> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ hash: string | null }>(
      `select encode(mailbox_hash, 'hex') as hash from public.contact_submissions where id = $1`,
      [inquiryId],
    )
    return rows[0]?.hash ?? null
  })
}

/**
 * The keys a receipt stands for (a test may use what only the visitor's browser holds): the
 * identity, written to a file for stock `age`, and the mailbox hash.
 */
export async function receiptKeys(text: string) {
  const receipt = readReceipt(text)
  if (receipt === 'length' || receipt === 'unknown-word' || receipt === 'checksum')
    throw new Error(`not a receipt (${receipt})`)
  const keys = await deriveReceiptKeys(receipt as Receipt)
  const identityFile = join(await mkdtemp(join(tmpdir(), 'receipt-')), 'identity.txt')
  await writeFile(identityFile, `${keys.identity}\n`, { mode: 0o600 })
  return { ...keys, identityFile }
}

/** Decrypts an armored age file with the stock `age` command and an identity file. */
export async function ageDecrypt(sealed: string, identityFile = E2E_DEV_IDENTITY): Promise<string> {
  const child = promisify(execFile)('age', ['--decrypt', '--identity', identityFile], {
    encoding: 'utf8',
  })
  child.child.stdin?.end(sealed)
  return (await child).stdout
}

/**
 * A page opened in a browser context of its own (no storage, no service worker, nothing of the
 * visitor's first visit), held to the same rules as the harness's page: its console errors,
 * uncaught exceptions and Content-Security-Policy violations are collected for the test to check.
 */
export function watchFreshPage(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    const line = `${message.type()}: ${message.text()}`
    if (HARNESS_CONSOLE_NOTES.includes(line)) return
    if (message.type() === 'error' || message.type() === 'warning') problems.push(line)
  })
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
  return problems
}
