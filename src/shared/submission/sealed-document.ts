/**
 * The sealed document: the plaintext inside every sealed row, the one contract between the form
 * that seals an inquiry and everyone who opens one (the staff inbox, `npm run inbox`, stock
 * `age -d`). README.md beside this file states it in prose; this module is its code.
 */
import { z } from '../zod'
import { isAgeRecipient } from '../crypto/recipients'
import { SIGNING_KEY_HEX } from '../crypto/signing-keys'
import { FILE_LABEL_MAX } from '../files/file-label'
import { ATTACHMENT_LIMITS, ATTACHMENT_OBJECT_NAME, SHA256_HEX } from './attachments'
import { LIMITS, submissionFieldsSchema, type SubmissionFields } from './fields'

/**
 * Written as `v`: the one version there is. A reader meeting another says so ('unknown-version');
 * the day a second version ships, its upgrader is written beside this.
 */
export const DOCUMENT_VERSION = 1

/**
 * One sealed file, as the document lists it: its object in the bucket (attachments.ts), and what
 * is said of it nowhere else: its original name, its type as the browser gave it, its plaintext
 * size and the lowercase hex SHA-256 of its plaintext (checked by whoever opens it).
 */
export const attachmentSchema = z.object({
  object: z.string().regex(ATTACHMENT_OBJECT_NAME),
  name: z.string().min(1).max(FILE_LABEL_MAX),
  type: z.string().max(FILE_LABEL_MAX),
  size: z.int().positive().max(ATTACHMENT_LIMITS.bytesPerFile),
  sha256: z.string().regex(SHA256_HEX),
})

export type SealedAttachment = z.output<typeof attachmentSchema>

/**
 * The document is padded with random filler to the smallest multiple of this many UTF-8 bytes
 * that holds it, so the ciphertext's length tells little about what was written.
 */
export const PAD_BUCKET_BYTES = 1024

/** The filler: base64url, one byte per character in UTF-8 and nothing JSON escapes. */
export const FILLER = /^[A-Za-z0-9_-]*$/

/** A whole document as it comes out of the ciphertext. */
export const sealedDocumentSchema = submissionFieldsSchema
  .extend({
    v: z.literal(DOCUMENT_VERSION),
    /** The row's id, made in the browser once per draft; bound to the content by the encryption. */
    id: z.uuid(),
    /** The browser's identification string, cut to LIMITS.userAgent characters. */
    user_agent: z.string().max(LIMITS.userAgent),
    /** When the visitor pressed Send, ISO 8601 UTC (the browser's clock). */
    submitted_at: z.iso.datetime(),
    /**
     * The visitor's age recipient for replies (from the receipt, src/shared/conversation/receipt.ts):
     * inside the seal. Anyone with the agency's public key can seal a whole new document with
     * another `reply_to` in a row's place; the staff inbox pins what it first opened per inquiry
     * (src/inbox/features/inquiries/inquiry-pins.ts) and seals replies to that one only.
     */
    reply_to: z.string().refine(isAgeRecipient),
    /**
     * The public half of the visitor's signing key (from the receipt): every follow-up must carry
     * its signature, so one sealed by anyone else with the agency's public key is refused.
     */
    signing_key: z.string().regex(SIGNING_KEY_HEX),
    /** The sealed files, each in its own object under this document's `id`; `[]` when none. */
    attachments: z.array(attachmentSchema).max(ATTACHMENT_LIMITS.files),
    pad: z.string().regex(FILLER),
  })
  .refine(
    (doc) => doc.attachments.every((file) => file.object.startsWith(`${doc.id}/`)),
    "every attachment's object is under the document's id",
  )

export type SealedDocument = z.output<typeof sealedDocumentSchema>

/** The document as the sealer takes it: everything but the version and the filler it adds. */
export type SubmissionDocument = Omit<SealedDocument, 'v' | 'pad' | 'attachments'> & {
  /** The sealed files (none when absent). */
  attachments?: SealedAttachment[]
}

/**
 * The document for validated fields, `id` and `now` from the draft, the browser's user agent, and
 * the recipient replies are sealed to and the key follow-ups are signed with (the receipt's).
 */
export function buildDocument(
  fields: SubmissionFields,
  context: {
    id: string
    now: number
    userAgent: string
    replyTo: string
    signingKey: string
    attachments?: SealedAttachment[]
  },
): SubmissionDocument {
  return {
    id: context.id,
    ...fields,
    user_agent: context.userAgent.slice(0, LIMITS.userAgent),
    submitted_at: new Date(context.now).toISOString(),
    reply_to: context.replyTo,
    signing_key: context.signingKey,
    attachments: context.attachments ?? [],
  }
}

const utf8 = new TextEncoder()

/**
 * The plaintext that gets sealed: the document's JSON in the contract's key order, whose UTF-8
 * length is the smallest multiple of PAD_BUCKET_BYTES that holds it. `filler(n)` gives n random
 * base64url characters. Fields are picked one by one, so nothing else the caller's object carries
 * can slip into the document.
 */
export function padDocument(doc: SubmissionDocument, filler: (length: number) => string): string {
  return padJson(
    {
      v: DOCUMENT_VERSION,
      id: doc.id,
      name: doc.name,
      contact: doc.contact,
      project_type: doc.project_type,
      budget: doc.budget,
      message: doc.message,
      user_agent: doc.user_agent,
      submitted_at: doc.submitted_at,
      reply_to: doc.reply_to,
      signing_key: doc.signing_key,
      attachments: (doc.attachments ?? []).map(({ object, name, type, size, sha256 }) => ({
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

/**
 * `body` as JSON with a last key `pad` of filler, so the UTF-8 length is the smallest multiple of
 * PAD_BUCKET_BYTES that holds it. Every sealed plaintext (inquiries, thread messages) is padded so.
 */
export function padJson(body: Record<string, unknown>, filler: (length: number) => string): string {
  const unpadded = utf8.encode(JSON.stringify({ ...body, pad: '' })).byteLength
  const target = Math.ceil(unpadded / PAD_BUCKET_BYTES) * PAD_BUCKET_BYTES
  return JSON.stringify({ ...body, pad: filler(target - unpadded) })
}

export type DocumentProblem = 'not-json' | 'unknown-version' | 'invalid'

/** A decrypted text that is not a document this version can read. Names no value it holds. */
export class DocumentError extends Error {
  constructor(readonly problem: DocumentProblem) {
    super(`not a sealed submission document (${problem})`)
    this.name = 'DocumentError'
  }
}

/** Reads a decrypted document, checked against the contract; throws a DocumentError otherwise. */
export function parseSealedDocument(text: string): SealedDocument {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new DocumentError('not-json')
  }
  if (typeof value !== 'object' || value === null || !('v' in value)) {
    throw new DocumentError('invalid')
  }
  if (value.v !== DOCUMENT_VERSION) throw new DocumentError('unknown-version')
  const parsed = sealedDocumentSchema.safeParse(value)
  if (!parsed.success) throw new DocumentError('invalid')
  return parsed.data
}
