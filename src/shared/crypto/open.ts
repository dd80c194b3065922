/**
 * Opening sealed text with the identities a reader holds: an inquiry, a thread message. What the
 * text must then be is the caller's contract; this says only whether it decrypted, and if not, why.
 */
import { bech32 } from '@scure/base'
import { armor, Decrypter, identityToRecipient } from 'age-encryption'

/** `other-key`: sealed to recipients none of the identities belongs to. */
export type Decrypted =
  | { text: string }
  | {
      problem: 'not-armor' | 'other-key' | 'undecryptable'
      /** typage's words when decryption failed: for a developer's console, never for a page. */
      detail?: string
    }

// typage's message when no identity is a recipient of the file.
const NO_MATCH = "no identity matched any of the file's recipients"

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

/** The armored age file `sealed`, decrypted to text with any of `secrets`, or why it could not be. */
export async function decryptSealed(
  sealed: string,
  secrets: readonly string[],
): Promise<Decrypted> {
  const decrypter = new Decrypter()
  for (const secret of secrets) decrypter.addIdentity(secret)
  return decryptWith(sealed, decrypter)
}

// PKCS #8's fixed wrapping of a 32-byte X25519 private key (RFC 8410): WebCrypto imports an X25519
// private key as PKCS #8 or JWK only, not raw.
const X25519_PKCS8_PREFIX = [
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20,
]

/**
 * An `AGE-SECRET-KEY-1…` as a non-extractable WebCrypto X25519 key: given the string, typage
 * imports the key again for every file it opens; given the key, each file costs one agreement.
 * Anything else (a post-quantum identity, no X25519 in this WebCrypto, a key whose public half
 * does not come out as the string's) stays the string.
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
 * `decryptSealed` for many texts with the same identities, parsed and imported once rather than
 * once per text (the staff inbox opens thousands of rows this way).
 */
export function sealedDecrypter(
  secrets: readonly string[],
): (sealed: string) => Promise<Decrypted> {
  const decrypter = Promise.all(secrets.map(x25519Key)).then((keys) => {
    const made = new Decrypter()
    for (const key of keys) made.addIdentity(key)
    return made
  })
  return async (sealed) => decryptWith(sealed, await decrypter)
}
