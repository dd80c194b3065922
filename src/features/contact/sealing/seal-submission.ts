/**
 * Sealing: the whole submission becomes one age file, encrypted in the browser to every configured
 * recipient, before anything is queued or sent. This module is the crypto chunk: import it only
 * through `loadSealer()` (load-sealer.ts), never statically, so no page pays for age up front.
 *
 * The plaintext is the shared contract's JSON document (CONTRACTS.md, "Sealed submission"), padded
 * with random filler to a multiple of 1 KiB of UTF-8 so the ciphertext's length says little.
 */
import { Encrypter, armor } from 'age-encryption'
import { SealingError } from './sealing-error.ts'

/** The submission as the browser knows it: the contract's document without `v` and `pad`. */
export type SubmissionDocument = {
  id: string
  name: string
  contact: string
  project_type: string | null
  budget: string | null
  message: string
  user_agent: string
  /** The client's submission time, ISO 8601 UTC. */
  submitted_at: string
}

/** Exactly the row the browser inserts into contact_submissions. */
export type SealedSubmission = { id: string; key_id: string; sealed: string }

export const PAD_BUCKET_BYTES = 1024
export const DOCUMENT_VERSION = 1
const ARMOR_BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----\n'
const ARMOR_END = '-----END AGE ENCRYPTED FILE-----\n'

const utf8 = new TextEncoder()

function webCrypto(): Crypto {
  const crypto = globalThis.crypto as Crypto | undefined
  // `crypto.subtle` is missing outside secure contexts; age needs random bytes, key_id needs SHA-256.
  if (
    typeof crypto?.getRandomValues !== 'function' ||
    typeof crypto.subtle?.digest !== 'function'
  ) {
    throw new SealingError('no-webcrypto')
  }
  return crypto
}

/**
 * An X25519 recipient as age itself reads it. Not the configuration's checker (lib/age-recipient):
 * importing it here would split it into a chunk of its own that every page then preloads.
 */
function isSealableRecipient(recipient: unknown): boolean {
  // The shape keeps out post-quantum and plugin recipients (longer) and uppercase spellings.
  if (typeof recipient !== 'string' || !/^age1[0-9a-z]{58}$/.test(recipient)) return false
  try {
    new Encrypter().addRecipient(recipient)
    return true
  } catch {
    return false
  }
}

/** The recipient set, checked, de-duplicated and sorted: the set key_id is computed over. */
function recipientSet(recipients: readonly string[]): string[] {
  if (recipients.length === 0) throw new SealingError('no-recipients')
  if (!recipients.every(isSealableRecipient)) throw new SealingError('invalid-recipient')
  return [...new Set(recipients)].sort()
}

/**
 * The recipient set's id (the contract's `key_id`): the first 16 hex characters of SHA-256 over the
 * sorted, de-duplicated recipients joined by "\n". Staff register the same set in
 * private.submission_keys, and the database refuses rows sealed to a set it does not know.
 */
export async function keySetId(recipients: readonly string[]): Promise<string> {
  const crypto = webCrypto()
  const digest = await crypto.subtle.digest(
    'SHA-256',
    utf8.encode(recipientSet(recipients).join('\n')),
  )
  return [...new Uint8Array(digest)]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 16)
}

function randomFiller(length: number, crypto: Crypto): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((length * 3) / 4) + 3))
  // base64url: one byte per character in UTF-8 and nothing JSON needs to escape, so the filler
  // adds exactly `length` bytes to the document.
  const base64 = btoa(String.fromCharCode(...bytes))
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '').slice(0, length)
}

/**
 * The plaintext that gets sealed: the contract's JSON document, whose UTF-8 length is the smallest
 * multiple of 1 KiB that holds it. Fields are picked one by one, so nothing else the caller's object
 * carries can slip into the document.
 */
export function padSubmission(doc: SubmissionDocument): string {
  const crypto = webCrypto()
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
  return JSON.stringify({ ...body, pad: randomFiller(target - unpadded, crypto) })
}

/**
 * Seals a submission to every recipient (two or more during a key rotation, or with an escrow
 * key). Resolves to the row to insert, or throws a SealingError: it never returns plaintext.
 */
export async function sealSubmission(
  doc: SubmissionDocument,
  recipients: readonly string[],
): Promise<SealedSubmission> {
  const recipientsInSet = recipientSet(recipients)
  const key_id = await keySetId(recipientsInSet)
  const plaintext = padSubmission(doc)

  const encrypter = new Encrypter()
  try {
    for (const recipient of recipientsInSet) encrypter.addRecipient(recipient)
  } catch (cause) {
    throw new SealingError('invalid-recipient', { cause })
  }

  let sealed: string
  try {
    sealed = armor.encode(await encrypter.encrypt(plaintext))
  } catch (cause) {
    throw new SealingError('encrypt-failed', { cause })
  }
  // Belt and braces for the one promise that matters: what leaves here is an age armor.
  if (!sealed.startsWith(ARMOR_BEGIN) || !sealed.endsWith(ARMOR_END)) {
    throw new SealingError('encrypt-failed')
  }
  return { id: doc.id, key_id, sealed }
}

/** A recipient whose identity was generated once and thrown away: nobody can open what it seals. */
const WARM_UP_RECIPIENT = 'age163nrfhucxd064xnq2cp4fn7p2pwkfu6zs33y9akjjgkc4f8jupyssy33p0'

/**
 * Seals a throwaway document once, so the browser compiles age's code (X25519, HKDF, ChaCha20,
 * armor) while the visitor is still typing rather than when they press Send: the first seal in a
 * fresh page costs several times the later ones. Never throws; the result is discarded.
 */
export async function warmUp(): Promise<void> {
  const blank = {
    id: '',
    name: '',
    contact: '',
    project_type: null,
    budget: null,
    message: '',
    user_agent: '',
    submitted_at: '',
  }
  await sealSubmission(blank, [WARM_UP_RECIPIENT]).catch(() => undefined)
}
