import { bech32 } from '@scure/base'
import { armor, Decrypter, identityToRecipient } from 'age-encryption'
import {
  DocumentError,
  parseSealedDocument,
  type DocumentProblem,
  type SealedDocument,
} from './sealed-document'

/**
 * Opening a stored row's `sealed` with the identities a reader holds: the one way the staff
 * inbox in the browser and `npm run inbox` read a submission (`decryptSealed` alone opens a
 * thread's messages, whose document is src/shared/conversation/thread-message.ts). Each reader
 * words the problems its own way; this says which one it is.
 */

/** `other-key`: sealed to recipients none of the identities belongs to (another key set). */
export type OpenProblem = 'not-armor' | 'other-key' | 'undecryptable' | DocumentProblem

export type OpenedSubmission =
  | { document: SealedDocument }
  | {
      problem: OpenProblem
      /** typage's words when decryption failed: for a developer's console, never for a page. */
      detail?: string
    }

// typage's message when no identity is a recipient of the file.
const NO_MATCH = "no identity matched any of the file's recipients"

type Decrypted =
  { text: string } | { problem: 'not-armor' | 'other-key' | 'undecryptable'; detail?: string }

/** The age file in `sealed`, decrypted to text with any of `secrets`, or why it could not be. */
export async function decryptSealed(
  sealed: string,
  secrets: readonly string[],
): Promise<Decrypted> {
  return decryptWith(sealed, decrypterFor(secrets))
}

function decrypterFor(secrets: readonly string[]): Decrypter {
  const decrypter = new Decrypter()
  for (const secret of secrets) decrypter.addIdentity(secret)
  return decrypter
}

async function decryptWith(sealed: string, decrypter: Decrypter): Promise<Decrypted> {
  let binary: Uint8Array
  try {
    binary = armor.decode(sealed)
  } catch {
    return { problem: 'not-armor' }
  }
  try {
    return { text: await decrypter.decrypt(binary, 'text') }
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unknown error'
    return { problem: detail === NO_MATCH ? 'other-key' : 'undecryptable', detail }
  }
}

function openDecrypted(decrypted: Decrypted): OpenedSubmission {
  if ('problem' in decrypted) return decrypted
  try {
    return { document: parseSealedDocument(decrypted.text) }
  } catch (error) {
    if (error instanceof DocumentError) return { problem: error.problem }
    throw error
  }
}

export async function openSealedSubmission(
  sealed: string,
  secrets: readonly string[],
): Promise<OpenedSubmission> {
  return openDecrypted(await decryptSealed(sealed, secrets))
}

// PKCS #8's fixed wrapping of a 32-byte X25519 private key (RFC 8410): WebCrypto imports an X25519
// private key as PKCS #8 or JWK only, not raw.
const X25519_PKCS8_PREFIX = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20,
]

/**
 * An `AGE-SECRET-KEY-1…` as a non-extractable WebCrypto X25519 key, imported once. Given the
 * string, typage imports the key again for every file it opens (and WebCrypto derives its public
 * key at each import); given the key, each file costs one X25519 agreement. Anything else (a
 * post-quantum identity), or where WebCrypto has no X25519 (typage then computes it in
 * JavaScript), or a key whose public half does not come out as the string's: the string.
 */
async function x25519Key(secret: string): Promise<string | CryptoKey> {
  if (!secret.startsWith('AGE-SECRET-KEY-1')) return secret
  try {
    const { prefix, bytes } = bech32.decodeToBytes(secret)
    if (prefix.toUpperCase() !== 'AGE-SECRET-KEY-' || bytes.length !== 32) return secret
    const pkcs8 = new Uint8Array([...X25519_PKCS8_PREFIX, ...bytes])
    const key = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'X25519' }, false, [
      'deriveBits',
    ])
    pkcs8.fill(0)
    bytes.fill(0)
    const [fromKey, fromString] = await Promise.all([
      identityToRecipient(key),
      identityToRecipient(secret),
    ])
    return fromKey === fromString ? key : secret
  } catch {
    return secret
  }
}

/**
 * `openSealedSubmission` for many rows with the same identities: the identities are parsed, and
 * their public keys derived, once (age's Decrypter keeps them), not once per row; X25519 ones are
 * imported into WebCrypto once too (`x25519Key`). The staff inbox opens 2,000 rows this way.
 */
export function sealedSubmissionOpener(
  secrets: readonly string[],
): (sealed: string) => Promise<OpenedSubmission> {
  const decrypter = Promise.all(secrets.map(x25519Key)).then((keys) => {
    const made = new Decrypter()
    for (const key of keys) made.addIdentity(key)
    return made
  })
  return async (sealed) => openDecrypted(await decryptWith(sealed, await decrypter))
}
