/**
 * The replies page's crypto chunk, loaded when the visitor presses "Open" (never with the page):
 * reads the receipt, derives its keys, opens the conversation through thread-rpc.ts and each of
 * its messages with the receipt's identity, and seals the visitor's follow-ups. The identity and
 * the token stay in memory, in what this returns; nothing here logs or stores them.
 */
import { armor, Decrypter } from 'age-encryption'
import {
  deriveReceiptKeys,
  readReceipt,
  type Receipt,
  type ReceiptProblem,
} from '../../../shared/conversation/receipt'
import {
  buildThreadMessage,
  padThreadMessage,
  parseThreadMessage,
} from '../../../shared/conversation/thread-message'
import type { ThreadView } from '../../../shared/database-types'
import { parseSealedDocument } from '../../../shared/submission/sealed-document'
import { siteEnv } from '../../../lib/env'
import { randomFiller, recipientSet, sealText } from '../sealing/seal-submission'
import { readThread, type ReadOutcome } from '../send-to-supabase'
import type { QueuedThreadMessage } from '../outbox/outbox-store'

/** One message of the thread as the visitor sees it: opened, or not openable with this receipt. */
export type OpenedMessage = {
  id: string
  from: 'visitor' | 'agency'
  /** The database's time it arrived. */
  at: string
  /** The text: the brief for the inquiry, the body for the rest; null when it cannot be opened. */
  body: string | null
  inquiry: boolean
}

/** An open conversation: what the page shows, and the keys to go on with (memory only). */
export type Conversation = {
  inquiryId: string
  reference: string
  status: ThreadView['status']
  deleteBy: string | null
  messages: OpenedMessage[]
  keys: { identity: string; recipient: string; mailboxToken: string }
}

export type OpenOutcome =
  | { kind: 'opened'; conversation: Conversation }
  | { kind: 'receipt-problem'; problem: ReceiptProblem }
  | Exclude<ReadOutcome, { kind: 'thread' }>

const isProblem = (read: Receipt | ReceiptProblem): read is ReceiptProblem =>
  read === 'length' || read === 'unknown-word' || read === 'checksum'

export async function openConversation(text: string): Promise<OpenOutcome> {
  const receipt = readReceipt(text)
  if (isProblem(receipt)) return { kind: 'receipt-problem', problem: receipt }
  const keys = await deriveReceiptKeys(receipt)
  const outcome = await readThread(keys.mailboxToken)
  if (outcome.kind !== 'thread') return outcome
  const { thread } = outcome
  const [first] = thread.messages
  const inquiryId = first!.id
  const messages = await Promise.all(
    thread.messages.map((row, index) => openMessage(row, index === 0, inquiryId, keys.identity)),
  )
  return {
    kind: 'opened',
    conversation: {
      inquiryId,
      reference: thread.reference,
      status: thread.status,
      deleteBy: thread.delete_by,
      messages,
      keys: {
        identity: keys.identity,
        recipient: keys.recipient,
        mailboxToken: keys.mailboxToken,
      },
    },
  }
}

async function decrypt(sealed: string, identity: string): Promise<string> {
  const decrypter = new Decrypter()
  decrypter.addIdentity(identity)
  return decrypter.decrypt(armor.decode(sealed), 'text')
}

/** Opens one row; a row that does not open or does not belong where it is shows as unopenable. */
async function openMessage(
  row: ThreadView['messages'][number],
  inquiry: boolean,
  inquiryId: string,
  identity: string,
): Promise<OpenedMessage> {
  const shown = { id: row.id, from: row.direction, at: row.created_at, inquiry }
  try {
    const text = await decrypt(row.sealed, identity)
    if (inquiry) {
      const document = parseSealedDocument(text)
      return { ...shown, body: document.id === row.id ? document.message : null }
    }
    const message = parseThreadMessage(text, { id: row.id, inquiryId, direction: row.direction })
    return { ...shown, body: message.body }
  } catch {
    return { ...shown, body: null }
  }
}

/**
 * The visitor's follow-up, sealed to the agency's recipients and the visitor's own (so the receipt
 * reads it back), as the outbox and `add_to_thread` take it. `id` is the draft's, kept across
 * retries. Throws a SealingError (its message a sentence) when it cannot seal.
 */
export async function sealFollowUp(
  body: string,
  conversation: Conversation,
  id: string,
  now: number,
): Promise<QueuedThreadMessage> {
  const agency = recipientSet(siteEnv.submissionKeys?.recipients ?? [])
  const draft = buildThreadMessage(body, {
    id,
    inquiryId: conversation.inquiryId,
    from: 'visitor',
    now,
  })
  const sealed = await sealText(
    padThreadMessage(draft, (length) => randomFiller(length)),
    [...agency, conversation.keys.recipient],
  )
  return { id, mailbox_token: conversation.keys.mailboxToken, sealed }
}
