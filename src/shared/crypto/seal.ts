/**
 * Sealing text: the one way anything readable becomes an age armor, for the site (inquiries,
 * follow-ups), the staff inbox (replies) and the tools. Files are sealed by seal-file.ts.
 */
import { Encrypter, armor } from 'age-encryption'
import { isAgeArmor, SEALED_MAX_CHARS } from '../submission/sealed-row'
import { recipientSet } from './recipients'
import { SealError } from './seal-error'

/** The page's Web Crypto, or a SealError: age needs random bytes, a key set's id SHA-256. */
export function webCrypto(): Crypto {
  const crypto = globalThis.crypto as Crypto | undefined
  // `crypto.subtle` is missing outside secure contexts.
  if (
    typeof crypto?.getRandomValues !== 'function' ||
    typeof crypto.subtle?.digest !== 'function'
  ) {
    throw new SealError('no-webcrypto')
  }
  return crypto
}

/** `length` random base64url characters: one UTF-8 byte each, and nothing JSON escapes. */
export function randomFiller(length: number, crypto: Crypto = webCrypto()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((length * 3) / 4) + 3))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
    .slice(0, length)
}

/**
 * `plaintext` as an age armor to every one of `recipients`, at most SEALED_MAX_CHARS long; throws
 * a SealError otherwise. It never returns anything but ciphertext the database accepts.
 */
export async function sealText(plaintext: string, recipients: readonly string[]): Promise<string> {
  const checked = recipientSet(recipients)
  webCrypto()
  const encrypter = new Encrypter()
  let sealed: string
  try {
    for (const recipient of checked) encrypter.addRecipient(recipient)
    sealed = armor.encode(await encrypter.encrypt(plaintext))
  } catch (cause) {
    throw new SealError('encrypt-failed', { cause })
  }
  if (sealed.length > SEALED_MAX_CHARS) throw new SealError('too-long')
  if (!isAgeArmor(sealed)) throw new SealError('encrypt-failed')
  return sealed
}
