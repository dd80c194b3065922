/**
 * The replies page's crypto, loaded when the visitor presses "Open" (never with the page):
 * reads the receipt, derives its keys, opens the conversation (lib/backend.ts) and each of
 * its messages with the receipt's identity, seals the visitor's follow-ups, and downloads and
 * opens the files of the agency's replies. The identity and the token stay in memory, in what
 * this returns; nothing here logs or stores them.
 */
import {
  deriveReceiptKeys,
  readReceipt,
  type Receipt,
  type ReceiptProblem,
} from '../../shared/conversation/receipt'
import {
  buildThreadMessage,
  isSignedBy,
  messageHash,
  padThreadMessage,
  parseThreadMessage,
  type ThreadPlace,
} from '../../shared/conversation/thread-message'
import type { Placed } from '../../shared/conversation/thread-order'
import type { SigningSeed } from '../../shared/crypto/signing'
import { openAndSave, type FileDownloadOutcome } from '../../shared/files/download-file-browser'
import { fitsDevice } from '../../shared/crypto/open-file'
import type { ThreadView } from '../../shared/database-types'
import { parseSealedDocument, type SealedAttachment } from '../../shared/submission/sealed-document'
import { siteEnv } from '../../lib/env'
import { decryptSealed } from '../../shared/crypto/open'
import { SealError } from '../../shared/crypto/seal-error'
import { randomFiller, sealText } from '../../shared/crypto/seal'
import {
  downloadReplyFile as fetchReplyFile,
  readThread,
  type ReadOutcome,
} from '../../lib/backend'
import type { QueuedThreadMessage } from '../outbox/outbox-types'

/** One message of the thread as the visitor sees it: opened, or not openable with this receipt. */
export type OpenedMessage = {
  id: string
  from: 'visitor' | 'agency'
  /** The database's time it arrived. */
  at: string
  /** The text: the brief for the inquiry, the body for the rest; null when it cannot be opened. */
  body: string | null
  inquiry: boolean
  /** The agency's reply's sealed files, as the reply lists them (none for the visitor's). */
  files: SealedAttachment[]
  /**
   * Opened, but not signed by its side's key: an "agency" reply the agency did not sign, or a
   * message as the visitor's that this receipt did not sign. Its text is never shown.
   */
  unsigned: boolean
  /** Its place in the thread, from inside its seal (thread-order.ts); null for the inquiry. */
  placed: Placed | null
}

/** An open conversation: what the page shows, and the keys to go on with (memory only). */
export type Conversation = {
  inquiryId: string
  reference: string
  status: ThreadView['status']
  deleteBy: string | null
  messages: OpenedMessage[]
  keys: {
    identity: string
    recipient: string
    mailboxToken: string
    signingSeed: SigningSeed
    signingKey: string
  }
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
  const signers = { agency: siteEnv.submissionKeys?.signingKeys ?? [], visitor: keys.signingKey }
  const messages = await Promise.all(
    thread.messages.map((row, index) =>
      openMessage(row, index === 0, inquiryId, keys.identity, signers),
    ),
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
        signingSeed: keys.signingSeed,
        signingKey: keys.signingKey,
      },
    },
  }
}

async function decrypt(sealed: string, identity: string): Promise<string> {
  const decrypted = await decryptSealed(sealed, [identity])
  if ('problem' in decrypted) throw new Error(decrypted.problem)
  return decrypted.text
}

/** Opens one row; a row that does not open or does not belong where it is shows as unopenable. */
async function openMessage(
  row: ThreadView['messages'][number],
  inquiry: boolean,
  inquiryId: string,
  identity: string,
  signers: { agency: readonly string[]; visitor: string },
): Promise<OpenedMessage> {
  const shown = {
    id: row.id,
    from: row.direction,
    at: row.created_at,
    inquiry,
    files: [],
    unsigned: false,
    placed: null,
  }
  try {
    const text = await decrypt(row.sealed, identity)
    if (inquiry) {
      // The inquiry's own files are sealed to the agency alone: the receipt does not open them.
      const document = parseSealedDocument(text)
      return { ...shown, body: document.id === row.id ? document.message : null }
    }
    const message = parseThreadMessage(text, { id: row.id, inquiryId, direction: row.direction })
    const keys = message.from === 'agency' ? signers.agency : [signers.visitor]
    if (!isSignedBy(message, keys)) return { ...shown, body: null, unsigned: true }
    const placed = { from: message.from, seq: message.seq, answers: message.answers }
    // Storage shows the visitor only the agency's files (its policy), so only those are listed.
    const files = row.direction === 'agency' ? message.attachments : []
    return {
      ...shown,
      body: message.body,
      files,
      placed: { ...placed, hash: messageHash(message) },
    }
  } catch {
    return { ...shown, body: null }
  }
}

/**
 * The visitor's follow-up, signed with the receipt's key and sealed to the agency's recipients and
 * the visitor's own (so the receipt reads it back), as the outbox and `add_to_thread` take it.
 * `id` is the draft's, kept across retries; `place`, its place in the thread as shown. Throws a
 * SealError when it cannot seal.
 */
export async function sealFollowUp(
  body: string,
  conversation: Conversation,
  id: string,
  now: number,
  place: ThreadPlace,
): Promise<QueuedThreadMessage> {
  const agency = siteEnv.submissionKeys?.recipients ?? []
  if (agency.length === 0) throw new SealError('no-recipients')
  const draft = buildThreadMessage(body, {
    id,
    inquiryId: conversation.inquiryId,
    from: 'visitor',
    now,
    place,
  })
  const sealed = await sealText(
    padThreadMessage(draft, conversation.keys.signingSeed, randomFiller),
    [...agency, conversation.keys.recipient],
  )
  return { id, mailbox_token: conversation.keys.mailboxToken, sealed }
}

/** The browser says it is offline (where it says nothing, it is taken as online). */
const isOffline = () => navigator.onLine === false

/**
 * Fetches a reply's file from the conversation's bucket as anon, with the mailbox token in the
 * header Storage's policy reads (never in the address), opens it with the receipt's identity,
 * checks its size and SHA-256 against the reply, and hands it to the browser as an ordinary
 * download under its original name. Nothing decrypted is stored.
 */
export async function downloadReplyFile(
  file: SealedAttachment,
  conversation: Conversation,
): Promise<FileDownloadOutcome> {
  if (!fitsDevice(file.size)) return 'too-large'
  if (isOffline()) return 'offline'
  const fetched = await fetchReplyFile(file.object, conversation.keys.mailboxToken)
  if (fetched.kind !== 'file') {
    // The server's words go to the console only; the object's name says nothing of the file.
    console.error('A reply’s file could not be fetched:', fetched.detail)
    return fetched.kind
  }
  return openAndSave(fetched.ciphertext, [conversation.keys.identity], file)
}
