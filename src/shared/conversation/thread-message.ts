/**
 * A thread message: the plaintext inside `contact_messages.sealed`, every message of a
 * conversation after the inquiry itself, in either direction. The agency's replies are sealed to
 * the visitor's `reply_to` (from the sealed inquiry) and to the agency's recipients, so colleagues
 * read the thread; the visitor's follow-ups to the agency's recipients and to the visitor's own
 * recipient, so the receipt reads the whole thread back. README.md beside this file states it.
 */
import { z } from '../zod'
import {
  attachmentSchema,
  FILLER,
  padJson,
  type SealedAttachment,
} from '../submission/sealed-document'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { signText, verifyText, type SigningSeed } from '../crypto/signing'
import { SIGNATURE_HEX } from '../crypto/signing-keys'
import { ATTACHMENT_LIMITS, SHA256_HEX } from '../submission/attachments'
import { LIMITS } from '../submission/fields'
import { REPLY_FILE_OBJECT_NAME, replyFileFolder } from './reply-files'

/** Written as `v`: the one version there is; a reader meeting another says so. */
export const THREAD_MESSAGE_VERSION = 1

/** A message's body has the brief's limit: a reply is as long as a brief may be. */
export const THREAD_MESSAGE_MAX = LIMITS.message

export const threadMessageBodySchema = z.string().trim().min(1).max(THREAD_MESSAGE_MAX)

/** One file of a message: as an inquiry's attachment, its object in the conversation's bucket. */
export const threadFileSchema = attachmentSchema.extend({
  object: z.string().regex(REPLY_FILE_OBJECT_NAME),
})

export const threadMessageSchema = z
  .object({
    v: z.literal(THREAD_MESSAGE_VERSION),
    /** The message's id, made by the sender once and kept across retries: the row's id. */
    id: z.uuid(),
    /** The inquiry (contact_submissions.id) the message belongs to. */
    inquiry_id: z.uuid(),
    from: z.enum(['visitor', 'agency']),
    body: threadMessageBodySchema,
    /** When Send was pressed, ISO 8601 UTC, by the sender's clock. */
    sent_at: z.iso.datetime(),
    /**
     * The message's sealed files, always present (`[]` when none), stored under
     * `<inquiry_id>/<id>/` in the conversation's bucket (reply-files.ts).
     */
    attachments: z.array(threadFileSchema).max(ATTACHMENT_LIMITS.files),
    /** Its place among its author's side's messages: 1 for the first, then one more each time. */
    seq: z.int().positive(),
    /**
     * The thread as its author saw it: the hash (messageHash) of the last message they had, of
     * either side, or null when the inquiry was the last.
     */
    answers: z.string().regex(SHA256_HEX).nullable(),
    /**
     * The author's Ed25519 signature over everything above (signedText): the agency's key for its
     * replies, the key in the visitor's sealed inquiry for follow-ups. age seals to public keys,
     * so without it anyone who can write rows could seal a message as either side.
     */
    sig: z.string().regex(SIGNATURE_HEX),
    pad: z.string().regex(FILLER),
  })
  .refine(
    (message) =>
      message.attachments.every((file) =>
        file.object.startsWith(replyFileFolder(message.inquiry_id, message.id)),
      ),
    "every file's object is under the message's folder",
  )

export type ThreadMessage = z.output<typeof threadMessageSchema>
/** A message as the sealer takes it: everything but the version, signature and filler. */
export type ThreadMessageDraft = Omit<ThreadMessage, 'v' | 'sig' | 'pad' | 'attachments'> & {
  attachments: SealedAttachment[]
}

/** Where a new message stands: its side's next `seq`, and the last message its author had. */
export type ThreadPlace = Pick<ThreadMessage, 'seq' | 'answers'>

export function buildThreadMessage(
  body: string,
  context: {
    id: string
    inquiryId: string
    from: ThreadMessage['from']
    now: number
    /** The message's sealed files, already stored under its folder (none when absent). */
    attachments?: SealedAttachment[]
    place: ThreadPlace
  },
): ThreadMessageDraft {
  const attachments = context.attachments ?? []
  const folder = replyFileFolder(context.inquiryId, context.id)
  if (
    attachments.length > ATTACHMENT_LIMITS.files ||
    !attachments.every(
      (file) => REPLY_FILE_OBJECT_NAME.test(file.object) && file.object.startsWith(folder),
    )
  ) {
    throw new TypeError("a message's files are at most five, under its own folder")
  }
  return {
    id: context.id,
    inquiry_id: context.inquiryId,
    from: context.from,
    body: threadMessageBodySchema.parse(body),
    sent_at: new Date(context.now).toISOString(),
    attachments,
    seq: context.place.seq,
    answers: context.place.answers,
  }
}

/** What is signed and hashed: the message without signature and filler, in the contract's order. */
function signedBody(message: ThreadMessageDraft) {
  return {
    v: THREAD_MESSAGE_VERSION,
    id: message.id,
    inquiry_id: message.inquiry_id,
    from: message.from,
    body: message.body,
    sent_at: message.sent_at,
    attachments: message.attachments.map(({ object, name, type, size, sha256 }) => ({
      object,
      name,
      type,
      size,
      sha256,
    })),
    seq: message.seq,
    answers: message.answers,
  }
}

/** Domain separation: a signature over a thread message is never one over anything else. */
const SIGNED_PREFIX = 'secure-contact/thread-message/v1\n'

/** The exact text a message's signature is over. */
export const signedText = (message: ThreadMessageDraft) =>
  SIGNED_PREFIX + JSON.stringify(signedBody(message))

/** A message's hash, as a later message's `answers` names it: lowercase hex SHA-256. */
export const messageHash = (message: ThreadMessageDraft) =>
  bytesToHex(sha256(utf8ToBytes(signedText(message))))

/** Whether the message is signed by one of `signingKeys` (the agency's, or the visitor's one). */
export const isSignedBy = (message: ThreadMessage, signingKeys: readonly string[]) =>
  verifyText(signedText(message), message.sig, signingKeys)

/**
 * The plaintext that gets sealed, in the contract's key order, signed with `seed` (the author's
 * side's key), padded like an inquiry.
 */
export function padThreadMessage(
  message: ThreadMessageDraft,
  seed: SigningSeed,
  filler: (length: number) => string,
): string {
  return padJson({ ...signedBody(message), sig: signText(signedText(message), seed) }, filler)
}

export type ThreadMessageProblem = 'not-json' | 'unknown-version' | 'invalid' | 'misplaced'

/** A decrypted text that is not a thread message of this row. Names no value it holds. */
export class ThreadMessageError extends Error {
  constructor(readonly problem: ThreadMessageProblem) {
    super(`not a thread message of this conversation (${problem})`)
    this.name = 'ThreadMessageError'
  }
}

/**
 * Reads a decrypted thread message and checks it belongs where the database put it: the same id
 * as its row, the same inquiry, the same direction. A mismatch means the ciphertext was copied
 * from another row or thread ('misplaced').
 */
export function parseThreadMessage(
  text: string,
  row: { id: string; inquiryId: string; direction: ThreadMessage['from'] },
): ThreadMessage {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ThreadMessageError('not-json')
  }
  if (typeof value !== 'object' || value === null || !('v' in value)) {
    throw new ThreadMessageError('invalid')
  }
  if (value.v !== THREAD_MESSAGE_VERSION) throw new ThreadMessageError('unknown-version')
  const parsed = threadMessageSchema.safeParse(value)
  if (!parsed.success) throw new ThreadMessageError('invalid')
  const message = parsed.data
  if (
    message.id !== row.id ||
    message.inquiry_id !== row.inquiryId ||
    message.from !== row.direction
  ) {
    throw new ThreadMessageError('misplaced')
  }
  return message
}
