import { execFile } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { armor, Encrypter, identityToRecipient } from 'age-encryption'
import {
  deriveReceiptKeys,
  generateReceipt,
  type ReceiptKeys,
} from '../../src/shared/conversation/receipt'
import { buildThreadMessage, padThreadMessage } from '../../src/shared/conversation/thread-message'
import { nextPlaceIn } from './conversation'
import { buildDocument, padDocument } from '../../src/shared/submission/sealed-document'
import { keySetId } from '../../src/shared/submission/sealed-row'
import { DEMO_JWT_SECRET, signApiKeys } from '../../supabase/local/gateway'
import { sql } from './backend-db'
import { E2E_API_URL } from './ports'
import { devIdentity } from './staff-inbox'

/**
 * The visitor's side of a sealed conversation, made in the test with the contract's own modules
 * (src/shared/conversation, src/shared/submission), for browser tests of the inbox: an inquiry
 * sealed as the site seals one (to the agency's development key and the receipt's recipient) and
 * stored, and a visitor's message added through `add_to_thread` as the replies page would.
 */

const filler = (length: number) => randomBytes(length).toString('base64url').slice(0, length)

/** The development identity's secret and recipient (the agency's key in the e2e run). */
export async function agencyKey(): Promise<{ identity: string; recipient: string }> {
  const identity = (await devIdentity()).trim().split('\n').at(-1) ?? ''
  return { identity, recipient: await identityToRecipient(identity) }
}

async function seal(plaintext: string, recipients: string[]): Promise<string> {
  const encrypter = new Encrypter()
  for (const recipient of recipients) encrypter.addRecipient(recipient)
  return armor.encode(await encrypter.encrypt(plaintext))
}

export type Fields = { name: string; contact: string; message: string }

/** `words`: the receipt as the visitor types it on /replies. */
export type StoredInquiry = { id: string; reference: string; receipt: ReceiptKeys; words: string }

/**
 * An inquiry stored as the site stores one: a receipt is made, its recipient goes inside the
 * document as `reply_to`, the document is sealed to the agency's key and to it, and the row
 * carries the mailbox hash.
 */
export async function storeInquiry(fields: Fields): Promise<StoredInquiry> {
  const agency = await agencyKey()
  const id = randomUUID()
  const words = generateReceipt()
  const receipt = await deriveReceiptKeys(words)
  const document = buildDocument(
    { ...fields, project_type: null, budget: null },
    {
      id,
      now: Date.now(),
      userAgent: 'e2e',
      replyTo: receipt.recipient,
      signingKey: receipt.signingKey,
    },
  )
  const sealed = await seal(padDocument(document, filler), [agency.recipient, receipt.recipient])
  await sql(
    `insert into public.contact_submissions (id, key_id, sealed, mailbox_hash)
     values ($1, $2, $3, decode($4, 'hex'))`,
    [id, await keySetId([agency.recipient]), sealed, receipt.mailboxHash],
  )
  return { id, reference: id.slice(0, 8), receipt, words }
}

/**
 * The row's inquiry replaced, as anyone who can write rows could with the agency's public key:
 * a new document under the same id, with `fields` and a reply_to and signing key of their own.
 */
export async function replaceInquiry(inquiry: StoredInquiry, fields: Fields): Promise<void> {
  const agency = await agencyKey()
  const theirs = await deriveReceiptKeys(generateReceipt())
  const document = buildDocument(
    { ...fields, project_type: null, budget: null },
    {
      id: inquiry.id,
      now: Date.now(),
      userAgent: 'e2e',
      replyTo: theirs.recipient,
      signingKey: theirs.signingKey,
    },
  )
  const sealed = await seal(padDocument(document, filler), [agency.recipient])
  await sql('update public.contact_submissions set sealed = $2 where id = $1', [inquiry.id, sealed])
}

/**
 * A visitor's message, sealed to the agency's key and the receipt's own recipient and added with
 * the receipt's mailbox token through `add_to_thread`, as the anonymous replies page does.
 */
export async function addVisitorMessage(inquiry: StoredInquiry, body: string): Promise<string> {
  const agency = await agencyKey()
  const id = randomUUID()
  const message = buildThreadMessage(body, {
    id,
    inquiryId: inquiry.id,
    from: 'visitor',
    now: Date.now(),
    place: await nextPlaceIn(inquiry.id, 'visitor'),
  })
  const sealed = await seal(padThreadMessage(message, inquiry.receipt.signingSeed, filler), [
    agency.recipient,
    inquiry.receipt.recipient,
  ])
  const { anonKey } = await signApiKeys(DEMO_JWT_SECRET)
  const answer = await fetch(`${E2E_API_URL}/rest/v1/rpc/add_to_thread`, {
    method: 'POST',
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${anonKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      mailbox_token: inquiry.receipt.mailboxToken,
      message_id: id,
      sealed,
    }),
  })
  if (!answer.ok) throw new Error(`add_to_thread answered ${answer.status}: ${await answer.text()}`)
  return id
}

export type MessageRow = {
  id: string
  submission_id: string
  direction: 'visitor' | 'agency'
  sealed: string
  author_email: string | null
  created_at: Date
}

/** An inquiry's stored thread after the inquiry itself, oldest first. */
export const messagesOf = (submissionId: string) =>
  sql<MessageRow>(
    'select * from public.contact_messages where submission_id = $1 order by created_at, id',
    [submissionId],
  )

/**
 * Decrypts with the stock `age` command and one identity, as a person would with
 * `age -d -i key.txt`: the identity sits in a file of its own for the call, then is removed.
 */
export async function ageDecrypt(sealed: string, identity: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'age-identity-'))
  const file = join(folder, 'key.txt')
  try {
    await writeFile(file, `${identity}\n`, { mode: 0o600 })
    const child = promisify(execFile)('age', ['--decrypt', '--identity', file], {
      encoding: 'utf8',
    })
    child.child.stdin?.end(sealed)
    return (await child).stdout
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}
