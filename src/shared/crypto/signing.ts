/**
 * Who wrote a message. age seals to public keys, so anyone who can write rows can seal a message as
 * well as its author can; an Ed25519 signature inside the seal says the author wrote it. Two keys
 * sign: the agency's, derived from its age identity (so every device and file that holds the
 * identity holds it, and `npm run keygen` prints its public half), and each visitor's, derived from
 * their receipt (receipt.ts), whose public half travels inside their sealed inquiry.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { bech32 } from '@scure/base'
import { SIGNATURE_HEX, SIGNING_KEY_HEX } from './signing-keys.ts'

/** Domain separation: the agency's signing key is never the same bytes as its X25519 key. */
const AGENCY_SALT = utf8ToBytes('secure-contact/agency-signing/v1')

/** A 32-byte Ed25519 secret seed. */
export type SigningSeed = Uint8Array & { readonly brand: 'SigningSeed' }

export const asSigningSeed = (bytes: Uint8Array) => bytes as SigningSeed

/** The agency's signing seed, from one `AGE-SECRET-KEY-1…` (null for any other identity). */
export function agencySigningSeed(ageSecret: string): SigningSeed | null {
  if (!ageSecret.startsWith('AGE-SECRET-KEY-1')) return null
  try {
    const { bytes } = bech32.decodeToBytes(ageSecret.toLowerCase())
    if (bytes.length !== 32) return null
    return asSigningSeed(hkdf(sha256, bytes, AGENCY_SALT, utf8ToBytes('ed25519'), 32))
  } catch {
    return null
  }
}

/** The seed of the first X25519 identity among `secrets`: what a staff device signs with. */
export function agencySigningSeedOf(secrets: readonly string[]): SigningSeed | null {
  for (const secret of secrets) {
    const seed = agencySigningSeed(secret)
    if (seed) return seed
  }
  return null
}

export const signingKeyOf = (seed: SigningSeed): string => bytesToHex(ed25519.getPublicKey(seed))

/** `message` signed with `seed`, as 128 hex characters. */
export const signText = (message: string, seed: SigningSeed): string =>
  bytesToHex(ed25519.sign(utf8ToBytes(message), seed))

/** Whether `signature` is one of `publicKeys`' over `message`. Malformed input is false. */
export function verifyText(
  message: string,
  signature: string,
  publicKeys: readonly string[],
): boolean {
  if (!SIGNATURE_HEX.test(signature)) return false
  const bytes = utf8ToBytes(message)
  return publicKeys.some((key) => {
    if (!SIGNING_KEY_HEX.test(key)) return false
    try {
      // zip215 off: the strict RFC 8032 rules, one valid signature per message and key.
      return ed25519.verify(hexToBytes(signature), bytes, hexToBytes(key), { zip215: false })
    } catch {
      return false
    }
  })
}
