/**
 * The visitor's receipt: twelve words from BIP39's published English list (128 random bits and a
 * 4-bit checksum), made by the browser when an inquiry is sealed, never chosen by the visitor.
 * Everything the visitor needs to read and continue the conversation is derived from it, with
 * HKDF-SHA256: a fast KDF is enough because the secret has 128 bits of entropy (the SecureDrop
 * Protocol does the same; a slow KDF only helps secrets people choose). README.md beside this file
 * gives the threat model.
 *
 * - an age X25519 identity: replies are sealed to its recipient, which travels inside the sealed
 *   inquiry (the database can edit no ciphertext; a whole new inquiry in the row's place is caught
 *   by every staff device that opened the first, src/inbox/features/inquiries/inquiry-pins.ts);
 * - a mailbox token: the two visitor RPCs take it; the database keeps only its SHA-256;
 * - an Ed25519 signing key: every follow-up is signed with it, and its public half travels inside
 *   the sealed inquiry, so a follow-up sealed by anyone else is refused.
 *
 * The receipt and the identity never leave the browser: no request, URL, log or storage holds
 * them, unless the visitor asks to keep the receipt on the device.
 */
import { bech32 } from '@scure/base'
import { generateMnemonic, mnemonicToEntropy } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { identityToRecipient } from 'age-encryption'
import { asSigningSeed, signingKeyOf, type SigningSeed } from '../crypto/signing'

export const RECEIPT_WORDS = 12
/** Domain separation: a later scheme changes the salt, so no key of this one is ever reused. */
const SALT = utf8ToBytes('secure-contact/receipt/v1')

export type Receipt = string & { readonly brand: 'Receipt' }
export type ReceiptProblem = 'length' | 'unknown-word' | 'checksum'

export type ReceiptKeys = {
  /** `AGE-SECRET-KEY-1…`: opens replies. Held in memory only. */
  identity: string
  /** `age1…`: what replies are sealed to; goes inside the sealed inquiry. */
  recipient: string
  /** 64 lowercase hex characters: what the visitor RPCs take. */
  mailboxToken: string
  /** 64 lowercase hex characters: SHA-256 of the token's bytes, all the database stores. */
  mailboxHash: string
  /** Signs the visitor's follow-ups. Held in memory only. */
  signingSeed: SigningSeed
  /** Its public half (64 hex characters): goes inside the sealed inquiry. */
  signingKey: string
}

/** A new receipt, from the browser's CSPRNG. */
export function generateReceipt(): Receipt {
  return generateMnemonic(wordlist, 128) as Receipt
}

/**
 * The receipt in what the visitor typed or pasted: case, spaces, line breaks, commas and numbering
 * ("1. word") do not matter. Says which problem it has otherwise, naming no word.
 */
export function readReceipt(text: string): Receipt | ReceiptProblem {
  const words = text
    .toLowerCase()
    .replace(/\d+[.)]/g, ' ')
    .split(/[^a-z]+/)
    .filter(Boolean)
  if (words.length !== RECEIPT_WORDS) return 'length'
  if (words.some((word) => !wordlist.includes(word))) return 'unknown-word'
  const receipt = words.join(' ')
  try {
    mnemonicToEntropy(receipt, wordlist)
  } catch {
    return 'checksum'
  }
  return receipt as Receipt
}

const derive = (entropy: Uint8Array, purpose: string) =>
  hkdf(sha256, entropy, SALT, utf8ToBytes(purpose), 32)

/** The keys a receipt stands for. The same receipt gives the same keys on any device. */
export async function deriveReceiptKeys(receipt: Receipt): Promise<ReceiptKeys> {
  const entropy = mnemonicToEntropy(receipt, wordlist)
  // X25519 clamps the scalar, so any 32 bytes are a valid identity.
  const identity = bech32
    .encodeFromBytes('AGE-SECRET-KEY-', derive(entropy, 'age-x25519'))
    .toUpperCase()
  const token = derive(entropy, 'mailbox')
  const signingSeed = asSigningSeed(derive(entropy, 'ed25519-signing'))
  return {
    identity,
    recipient: await identityToRecipient(identity),
    mailboxToken: bytesToHex(token),
    mailboxHash: bytesToHex(sha256(token)),
    signingSeed,
    signingKey: signingKeyOf(signingSeed),
  }
}
