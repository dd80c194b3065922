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
import { ATTACHMENT_LIMITS } from '../submission/attachments'
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
/** A message as the sealer takes it: everything but the version and the filler, files listed. */
export type ThreadMessageDraft = Omit<ThreadMessage, 'v' | 'pad' | 'attachments'> & {
  attachments: SealedAttachment[]
}

export function buildThreadMessage(
  body: string,
  context: {
    id: string
    inquiryId: string
    from: ThreadMessage['from']
    now: number
    /** The message's sealed files, already stored under its folder (none when absent). */
    attachments?: SealedAttachment[]
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
  }
}

/** The plaintext that gets sealed, in the contract's key order, padded like an inquiry. */
export function padThreadMessage(
  message: ThreadMessageDraft,
  filler: (length: number) => string,
): string {
  return padJson(
    {
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
    },
    filler,
  )
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
