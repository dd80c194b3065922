import {
  armor,
  Decrypter,
  Encrypter,
  generateX25519Identity,
  identityToRecipient,
} from 'age-encryption'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { readIdentityLines, recipientsOf } from '../../../shared/age-identity-lines'

/**
 * Adding a device without pasting a key.
 *
 * 1. The new device makes a one-time age key in memory. The LINKING CODE, five BIP-39 words,
 *    names 55 bits of its recipient's SHA-256: the unlocked device recomputes the words from the
 *    recipient the server sends and refuses one that does not give them (forging one takes about
 *    2^55 key generations, within the link's 10 minutes).
 * 2. The unlocked device seals {identities, nonce} to that recipient.
 * 3. Both screens show the COMPARISON CODE, six digits of SHA-256 over the recipient, the armor
 *    and the nonce. The server never sees the nonce, so a key set it swapped in shows another
 *    code: one chance in a million, with no second try.
 *
 * Only the one-time identity and the key set are secret: the words and digits can be read aloud.
 */

export const LINK_WORDS = 5
export const LINK_LIFETIME_MS = 10 * 60 * 1000

export type OneTimeKey = { identity: string; recipient: string; code: string }

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
}

/** The linking code of a one-time recipient: five words (55 bits of its SHA-256), space apart. */
export async function linkCodeOf(recipient: string): Promise<string> {
  const digest = await sha256(`inbox device link v1\n${recipient}`)
  const words: string[] = []
  for (let index = 0; index < LINK_WORDS; index++) {
    // Bits 11*index to 11*index+10 of the digest, big-endian.
    const bit = index * 11
    const window =
      (digest[bit >> 3]! << 16) | (digest[(bit >> 3) + 1]! << 8) | digest[(bit >> 3) + 2]!
    words.push(wordlist[(window >> (24 - 11 - (bit & 7))) & 0x7ff]!)
  }
  return words.join(' ')
}

/**
 * A typed linking code as the row's fingerprint ("word-word-word-word-word"), or null when it is
 * not five words of the list. Case, spaces, dashes and dots between words do not matter.
 */
export function fingerprintOf(typed: string): string | null {
  const words = typed
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
  if (words.length !== LINK_WORDS || !words.every((word) => wordlist.includes(word))) return null
  return words.join('-')
}

/** The new device's one-time key, with its linking code. */
export async function newOneTimeKey(): Promise<OneTimeKey> {
  const identity = await generateX25519Identity()
  const recipient = await identityToRecipient(identity)
  return { identity, recipient, code: await linkCodeOf(recipient) }
}

/** Six digits, "123 456", of what both devices know once the key set is sealed. */
export async function comparisonCode(recipient: string, sealed: string, nonce: string) {
  const digest = await sha256(`inbox device link compare v1\n${recipient}\n${sealed}\n${nonce}`)
  const number = new DataView(digest.buffer).getUint32(0) % 1_000_000
  const digits = String(number).padStart(6, '0')
  return `${digits.slice(0, 3)} ${digits.slice(3)}`
}

type Payload = { v: 1; identities: string[]; nonce: string }

/** The unlocked device: the key set sealed to the new device's recipient, and the code to compare. */
export async function sealKeySet(identities: string[], recipient: string) {
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
  const payload: Payload = { v: 1, identities, nonce }
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient)
  const sealed = armor.encode(await encrypter.encrypt(JSON.stringify(payload)))
  return { sealed, comparison: await comparisonCode(recipient, sealed, nonce) }
}

export class LinkOpenError extends Error {
  constructor() {
    super('the sealed key set could not be opened')
    this.name = 'LinkOpenError'
  }
}

/** The new device: the key set and the code to compare, or LinkOpenError. */
export async function openKeySet(key: OneTimeKey, sealed: string) {
  let payload: Payload
  try {
    const decrypter = new Decrypter()
    decrypter.addIdentity(key.identity)
    payload = JSON.parse(await decrypter.decrypt(armor.decode(sealed), 'text')) as Payload
  } catch {
    throw new LinkOpenError()
  }
  const identities = Array.isArray(payload.identities) ? payload.identities.map(String) : []
  const { secrets } = readIdentityLines(identities.join('\n'))
  if (
    payload.v !== 1 ||
    typeof payload.nonce !== 'string' ||
    secrets.length === 0 ||
    secrets.length !== identities.length ||
    !(await recipientsOf(secrets))
  )
    throw new LinkOpenError()
  return {
    identities: secrets,
    comparison: await comparisonCode(key.recipient, sealed, payload.nonce),
  }
}
