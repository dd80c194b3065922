/**
 * The one recipient check: a native X25519 age recipient (`age1…`, as `age-keygen` prints it),
 * lowercase, with a valid bech32 checksum. Post-quantum (`age1pq1…`) and plugin recipients are
 * refused on purpose: staff decrypt with the stock `age` command, and Debian's `age` 1.1 reads
 * X25519 only. Pure, so the build's configuration can use it without age.
 */
import { SealError } from './seal-error.ts'

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const

/** "age" + "1" + 52 characters of key (32 bytes) + 6 of checksum. */
const X25519_RECIPIENT = /^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$/

function polymod(values: readonly number[]): number {
  let checksum = 1
  for (const value of values) {
    const top = checksum >>> 25
    checksum = ((checksum & 0x1ffffff) << 5) ^ value
    BECH32_GENERATOR.forEach((generator, bit) => {
      if ((top >>> bit) & 1) checksum ^= generator
    })
  }
  return checksum
}

export function isAgeRecipient(candidate: unknown): candidate is string {
  if (typeof candidate !== 'string' || !X25519_RECIPIENT.test(candidate)) return false
  const words = [...candidate.slice(4)].map((char) => BECH32_CHARSET.indexOf(char))
  const hrp = [...'age'].map((char) => char.charCodeAt(0))
  const expanded = [...hrp.map((code) => code >> 5), 0, ...hrp.map((code) => code & 31)]
  if (polymod([...expanded, ...words]) !== 1) return false
  // 52 five-bit words carry 260 bits for a 256-bit key: the last word's 4 spare bits must be zero,
  // as age itself requires, so one key has exactly one spelling (and one key_id).
  return ((words[51] ?? 1) & 0b1111) === 0
}

/** The recipients, checked and de-duplicated; throws a SealError when there is none or one is bad. */
export function recipientSet(recipients: readonly unknown[]): string[] {
  if (recipients.length === 0) throw new SealError('no-recipients')
  if (!recipients.every(isAgeRecipient)) throw new SealError('invalid-recipient')
  return [...new Set(recipients)]
}

/** Shortened for display: `age1qv5gmw…2wzr0z`. Never for comparison: show the full key beside it. */
export function shortRecipient(recipient: string): string {
  return recipient.length <= 16 ? recipient : `${recipient.slice(0, 10)}…${recipient.slice(-6)}`
}
