/**
 * The sealed document: the plaintext inside every sealed row, the one contract between the form
 * that seals an inquiry and everyone who opens one (the staff inbox, `npm run inbox`, stock
 * `age -d`). README.md beside this file states it in prose; this module is its code.
 */
import { z } from '../zod'
import { LIMITS, submissionFieldsSchema, type SubmissionFields } from './fields'

/** Written as `v`; an opener refuses any other, so version 2 comes with its reader. */
export const DOCUMENT_VERSION = 1

/**
 * The document is padded with random filler to the smallest multiple of this many UTF-8 bytes
 * that holds it, so the ciphertext's length tells little about what was written.
 */
export const PAD_BUCKET_BYTES = 1024

/** The filler: base64url, one byte per character in UTF-8 and nothing JSON escapes. */
const FILLER = /^[A-Za-z0-9_-]*$/

/** A whole document as it comes out of the ciphertext. */
export const sealedDocumentSchema = submissionFieldsSchema.extend({
  v: z.literal(DOCUMENT_VERSION),
  /** The row's id, made in the browser once per draft; bound to the content by the encryption. */
  id: z.uuid(),
  /** The browser's identification string, cut to LIMITS.userAgent characters. */
  user_agent: z.string().max(LIMITS.userAgent),
  /** When the visitor pressed Send, ISO 8601 UTC (the browser's clock). */
  submitted_at: z.iso.datetime(),
  pad: z.string().regex(FILLER),
})

export type SealedDocument = z.output<typeof sealedDocumentSchema>

/** The document as the sealer takes it: everything but the version and the filler it adds. */
export type SubmissionDocument = Omit<SealedDocument, 'v' | 'pad'>

/** The document for validated fields, `id` and `now` from the draft, the browser's user agent. */
export function buildDocument(
  fields: SubmissionFields,
  context: { id: string; now: number; userAgent: string },
): SubmissionDocument {
  return {
    id: context.id,
    ...fields,
    user_agent: context.userAgent.slice(0, LIMITS.userAgent),
    submitted_at: new Date(context.now).toISOString(),
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
  const body = {
    v: DOCUMENT_VERSION,
    id: doc.id,
    name: doc.name,
    contact: doc.contact,
    project_type: doc.project_type,
    budget: doc.budget,
    message: doc.message,
    user_agent: doc.user_agent,
    submitted_at: doc.submitted_at,
  }
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
