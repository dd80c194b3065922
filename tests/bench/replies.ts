/**
 * `npm run bench`, the visitor's replies page (issue 24): against a local backend of its own (a
 * throwaway folder) holding one inquiry with a thread of 20 messages (the inquiry and 19 after it,
 * the agency's and the visitor's in turn), and a build of the site pointed at it.
 *
 * - With the CPU slowed 4x (Chromium's throttling), median of 5 page loads: from pressing "Open"
 *   with the receipt typed to the 20th message on screen takes at most 1 s (the receipt read, its
 *   keys derived, the thread fetched and every message opened in the browser).
 *
 * Writes bench-results/replies.json; exits 1 if the target is missed.
 */
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { expect } from '@playwright/test'
import { armor, Encrypter } from 'age-encryption'
import { conversationCopy, repliesCopy } from '../../src/features/replies/replies-copy'
import { deriveReceiptKeys, generateReceipt } from '../../src/shared/conversation/receipt'
import {
  buildThreadMessage,
  messageHash,
  padThreadMessage,
} from '../../src/shared/conversation/thread-message'
import { agencySigningSeed, type SigningSeed } from '../../src/shared/crypto/signing'
import { buildDocument, padDocument } from '../../src/shared/submission/sealed-document'
import { keySetId } from '../../src/shared/submission/sealed-row'
import { ensureDevIdentity } from '../../supabase/local/dev-identity'
import {
  benchRuns,
  CPU_SLOWDOWN,
  median,
  type BenchBackend,
  withSiteBench,
  writeResults,
} from './harness'

const RUNS = benchRuns(5)
const MESSAGES = 20
const PORTS = { api: 54371, site: 4197 }
const TARGET_OPEN_MS = 1000

const filler = (length: number) => 'A'.repeat(length)

async function seal(plaintext: string, recipients: string[]): Promise<string> {
  const encrypter = new Encrypter()
  for (const recipient of recipients) encrypter.addRecipient(recipient)
  return armor.encode(await encrypter.encrypt(plaintext))
}

/** The inquiry as the site seals it, and 19 messages after it, as the inbox and /replies seal them. */
async function seedThread(
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  agencyRecipient: string,
  agencySeed: SigningSeed,
): Promise<string> {
  const receipt = generateReceipt()
  const keys = await deriveReceiptKeys(receipt)
  const id = randomUUID()
  const start = Date.now() - MESSAGES * 60_000
  const document = buildDocument(
    {
      name: 'Bench visitor',
      contact: '@bench_visitor',
      project_type: 'community-building',
      budget: '25k-50k',
      message: `A launch plan with a community and a budget. `.repeat(60),
    },
    { id, now: start, userAgent: 'bench', replyTo: keys.recipient, signingKey: keys.signingKey },
  )
  const recipients = [agencyRecipient, keys.recipient]
  await query(
    `insert into public.contact_submissions (id, key_id, sealed, mailbox_hash, created_at)
     values ($1, $2, $3, decode($4, 'hex'), $5)`,
    [
      id,
      await keySetId([agencyRecipient]),
      await seal(padDocument(document, filler), recipients),
      keys.mailboxHash,
      new Date(start),
    ],
  )
  let previous: string | null = null
  for (let index = 1; index < MESSAGES; index += 1) {
    const from = index % 2 === 1 ? 'agency' : 'visitor'
    const messageId = randomUUID()
    const body = `Message ${index}: ${'Thanks, here is what we propose for the next step. '.repeat(20)}`
    const now = start + index * 60_000
    const place = { seq: Math.ceil(index / 2), answers: previous }
    const message = buildThreadMessage(body, { id: messageId, inquiryId: id, from, now, place })
    previous = messageHash(message)
    await query(
      `insert into public.contact_messages (id, submission_id, direction, sealed, author_email, created_at)
       values ($1, $2, $3, $4, $5, $6)`,
      [
        messageId,
        id,
        from,
        await seal(
          padThreadMessage(message, from === 'agency' ? agencySeed : keys.signingSeed, filler),
          recipients,
        ),
        from === 'agency' ? 'staff@example.com' : null,
        new Date(now),
      ],
    )
  }
  return receipt
}

async function main() {
  const report: Record<string, unknown> = {}
  let missed = false
  let receipt = ''
  const seed = async ({ backend, backendDir }: BenchBackend) => {
    const { recipient, identityFile } = await ensureDevIdentity(backendDir)
    const secret = (await readFile(identityFile, 'utf8')).match(/^AGE-SECRET-KEY-1\S+$/m)?.[0]
    receipt = await seedThread(
      (sql, params) => backend.db.query(sql, params),
      recipient,
      agencySigningSeed(secret ?? '')!,
    )
    return {}
  }
  // Reads are limited per mailbox (60 an hour): the bench opens the thread a few times only.
  await withSiteBench('replies', PORTS, seed, async ({ browser, port }) => {
    const runs: number[] = []
    for (let run = 0; run < RUNS; run += 1) {
      const page = await browser.newPage({ viewport: { width: 375, height: 812 } })
      await page.goto(`http://127.0.0.1:${port}/replies`)
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
      await page.getByRole('textbox', { name: repliesCopy.receiptLabel }).fill(receipt)
      const open = page.getByRole('button', { name: repliesCopy.open })
      const thread = page.getByRole('list', { name: conversationCopy.threadLabel })
      const started = Date.now()
      await open.click()
      await expect(thread.locator(':scope > li')).toHaveCount(MESSAGES, { timeout: 30_000 })
      runs.push(Date.now() - started)
      await page.close()
    }
    report.openMs = median(runs)
    report.runs = runs
    missed = (report.openMs as number) > TARGET_OPEN_MS
  })

  console.table([{ messages: MESSAGES, cpuSlowdown: CPU_SLOWDOWN, ...report, runs: undefined }])
  console.log('open runs (ms):', JSON.stringify(report.runs))
  await writeResults('replies', {
    runs: RUNS,
    messages: MESSAGES,
    cpuSlowdown: CPU_SLOWDOWN,
    targetOpenMs: TARGET_OPEN_MS,
    report,
  })
  if (missed) {
    console.log(
      `Replies target missed: ${String(report.openMs)} ms from Open to ${MESSAGES} messages.`,
    )
    process.exitCode = 1
  } else console.log('Replies target met.')
}

await main()
