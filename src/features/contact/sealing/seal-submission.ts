/**
 * Sealing: the whole submission becomes one age file, encrypted in the browser to every configured
 * recipient, before anything is queued or sent. Import it only through `loadSealer()`
 * (load-sealer.ts), never statically, so no page pays for age up front.
 *
 * What is sealed, and the row that results, are the sealed submission's contract
 * (src/shared/submission/README.md): this module only encrypts.
 */
import {
  deriveReceiptKeys,
  generateReceipt,
  type Receipt,
} from '../../../shared/conversation/receipt'
import type { SealedRow } from '../../../shared/database-types'
import {
  buildDocument,
  padDocument,
  type SealedAttachment,
  type SubmissionDocument,
} from '../../../shared/submission/sealed-document'
import { keySetId } from '../../../shared/submission/sealed-row'
import { attachmentObjectName } from '../../../shared/submission/attachments'
import type { InquiryDraft, SealedFile, SealedInquiry } from '../submit-contact'
import { recipientSet } from '../../../shared/crypto/recipients'
import { randomFiller, sealText, webCrypto } from '../../../shared/crypto/seal'
import { sealFile } from '../../../shared/crypto/seal-file'
import { listedFileName, listedFileType } from '../../../shared/files/file-label'
import { loadWasmSealEngine } from '../../../shared/crypto/load-wasm-seal-engine'

/**
 * Seals a submission to every recipient of the agency's set (two or more during a key rotation, or
 * with an escrow key) and to the visitor's own `reply_to`, so the receipt reads the inquiry back.
 * The row's key_id stays the agency set's: the database knows that set, never the visitor's key.
 * Resolves to the row to insert, or throws a SealError: it never returns plaintext.
 */
export async function sealSubmission(
  doc: SubmissionDocument,
  recipients: readonly string[],
): Promise<SealedRow> {
  const recipientsInSet = recipientSet(recipients)
  const crypto = webCrypto()
  const key_id = await keySetId(recipientsInSet)
  const plaintext = padDocument(doc, (length) => randomFiller(length, crypto))
  const sealed = await sealText(plaintext, [...recipientsInSet, doc.reply_to])
  return { id: doc.id, key_id, sealed }
}

/** `\x` and 64 hex characters: how PostgREST takes a bytea, for `mailbox_hash`. */
export const asBytea = (hex: string) => `\\x${hex}`

/**
 * The inquiry as the form sends it: a receipt (made here, unless this draft
 * already has one from an earlier try: a retry must keep it, or a row stored by the first try
 * would answer to a receipt the visitor never saw), its keys, the document with the
 * visitor's recipient inside, sealed; the row carries the mailbox token's hash, never the token.
 */
export async function sealInquiry(
  draft: InquiryDraft,
  recipients: readonly string[],
  earlier: Receipt | null,
  earlierFiles: readonly SealedFile[] = [],
  onSealedBytes?: (bytes: number) => void,
): Promise<SealedInquiry> {
  const checked = recipientSet(recipients)
  webCrypto()
  const receipt = earlier ?? generateReceipt()
  const keys = await deriveReceiptKeys(receipt)
  const documentWith = (attachments: SealedAttachment[]) =>
    buildDocument(draft.fields, {
      id: draft.id,
      now: draft.now,
      userAgent: draft.userAgent,
      replyTo: keys.recipient,
      signingKey: keys.signingKey,
      attachments,
    })
  // Files take seconds to seal: first make sure the document listing them fits the database's
  // bound, with stand-ins of the same lengths (a name, a type, a size; an object name and a hash
  // are always as long), so a brief too long beside them is said before any file is sealed.
  if (draft.files?.length) await sealSubmission(documentWith(draft.files.map(standIn)), checked)
  const files = await sealFiles(draft, checked, earlierFiles, onSealedBytes)
  const document = documentWith(files.map((file) => file.attachment))
  const row = await sealSubmission(document, checked)
  return { row: { ...row, mailbox_hash: asBytea(keys.mailboxHash) }, receipt, files }
}

/**
 * Seals each attached file on its own, one after the other (so only one is being read at a
 * time), to the agency's recipients only: the visitor's receipt opens the inquiry, not the files.
 * A file this draft already sealed on an earlier try is reused, object name and all: an upload
 * that got through then is not repeated, and no second object is left behind.
 */
async function sealFiles(
  draft: InquiryDraft,
  recipients: readonly string[],
  earlierFiles: readonly SealedFile[],
  onSealedBytes?: (bytes: number) => void,
): Promise<SealedFile[]> {
  const sealed: SealedFile[] = []
  // WebAssembly where this page may use it (about 3x faster), else pure JavaScript: one engine
  // for all the files, loaded once (attaching a file started it: preloadFileSealing).
  const engine = draft.files?.length ? await loadWasmSealEngine() : undefined
  for (const file of draft.files ?? []) {
    const earlier = earlierFiles.find((candidate) => candidate.source === file)
    if (earlier && earlier.attachment.object.startsWith(`${draft.id}/`)) {
      onSealedBytes?.(file.size)
      sealed.push(earlier)
      continue
    }
    const object = attachmentObjectName(draft.id, crypto.randomUUID())
    const { ciphertext, size, sha256 } = await sealFile(file, recipients, onSealedBytes, {
      engine,
    })
    sealed.push({
      source: file,
      ciphertext,
      attachment: { object, ...listedLabels(file), size, sha256 },
    })
  }
  return sealed
}

/** A file's name and type as the document lists them (within what every reader accepts). */
const listedLabels = (file: File) => ({
  name: listedFileName(file.name || 'attachment'),
  type: listedFileType(file.type),
})

/** What the document will say of `file` before it is sealed: every field at its final length. */
const standIn = (file: File): SealedAttachment => ({
  object: `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
  ...listedLabels(file),
  size: file.size,
  sha256: '0'.repeat(64),
})

/** A recipient whose identity was generated once and thrown away: nobody can open what it seals. */
const PRELOAD_RECIPIENT = 'age163nrfhucxd064xnq2cp4fn7p2pwkfu6zs33y9akjjgkc4f8jupyssy33p0'

/**
 * Seals a throwaway document once, so the browser compiles age's code (X25519, HKDF, ChaCha20,
 * armor) while the visitor is still typing rather than when they press Send: the first seal in a
 * fresh page costs several times the later ones. Never throws; the result is discarded.
 */
export async function preload(): Promise<void> {
  const blank = {
    id: '',
    name: '',
    contact: '',
    project_type: null,
    budget: null,
    message: '',
    user_agent: '',
    submitted_at: '',
    reply_to: PRELOAD_RECIPIENT,
    signing_key: '',
  }
  await sealSubmission(blank, [PRELOAD_RECIPIENT]).catch(() => undefined)
}

/**
 * Starts loading the engine that seals files (WebAssembly) once the visitor
 * attaches one: never before, so a message without files never pays for it. Never throws.
 */
export function preloadFileSealing(): void {
  void loadWasmSealEngine()
}
