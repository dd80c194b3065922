/**
 * Opening a sealed file on this device: the ciphertext (a Blob, as Storage's download gives it)
 * decrypted as a stream with the reader's identities (the staff inbox's unlocked key, or a
 * visitor's receipt), its SHA-256 computed on the way, and the plaintext gathered into a Blob a few
 * megabytes at a time, never as one array in the page. The caller hands the result to the browser
 * as an ordinary download (save-file-browser.ts); nothing decrypted is written to IndexedDB or
 * Cache Storage.
 */
import { Decrypter } from 'age-encryption'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import type { SealedAttachment } from '../submission/sealed-document'

/** Plaintext is folded into the Blob every this many bytes. */
const FOLD_BYTES = 4 * 1024 * 1024

/**
 * - opened: the plaintext, its size and SHA-256 those the document promised;
 * - mismatch: it decrypted, but is not the file the document describes (size or SHA-256);
 * - other-key: sealed to keys this device does not hold;
 * - damaged: not an age file, or cut short or altered (age's tags failed);
 * - too-large: this device could not hold the file while opening it.
 */
export type OpenedAttachment =
  { kind: 'opened'; file: Blob } | { kind: 'mismatch' | 'other-key' | 'damaged' | 'too-large' }

/** Whether a file of `bytes` is likely to fit in this device's memory (Chromium tells; others: yes). */
export function fitsDevice(bytes: number, deviceMemoryGiB = deviceMemory()): boolean {
  if (deviceMemoryGiB === undefined) return true
  // A quarter of the memory for one file's ciphertext and plaintext together.
  return bytes * 2 <= (deviceMemoryGiB * 1024 ** 3) / 4
}

function deviceMemory(): number | undefined {
  const memory = (globalThis.navigator as { deviceMemory?: unknown } | undefined)?.deviceMemory
  return typeof memory === 'number' ? memory : undefined
}

const isOutOfRoom = (error: unknown) =>
  error instanceof RangeError ||
  (error instanceof DOMException && error.name === 'QuotaExceededError')

/** The plaintext of an age file, as a stream, with any of `secrets`; rejects when it cannot open. */
export function decryptStream(
  ciphertext: ReadableStream<Uint8Array>,
  secrets: readonly string[],
): Promise<ReadableStream<Uint8Array>> {
  const decrypter = new Decrypter()
  for (const secret of secrets) decrypter.addIdentity(secret)
  return decrypter.decrypt(ciphertext)
}

export async function openAttachment(
  ciphertext: Blob,
  identities: readonly string[],
  expected: Pick<SealedAttachment, 'size' | 'sha256' | 'type'>,
): Promise<OpenedAttachment> {
  if (!fitsDevice(expected.size)) return { kind: 'too-large' }
  let plaintext: ReadableStream<Uint8Array>
  try {
    plaintext = await decryptStream(ciphertext.stream(), identities)
  } catch (error) {
    if (isOutOfRoom(error)) return { kind: 'too-large' }
    const noMatch = error instanceof Error && /no identity matched/.test(error.message)
    return { kind: noMatch ? 'other-key' : 'damaged' }
  }
  const hash = sha256.create()
  const type = expected.type || 'application/octet-stream'
  let file = new Blob([], { type })
  let parts: Uint8Array[] = []
  let held = 0
  let size = 0
  try {
    const reader = plaintext.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      hash.update(value)
      size += value.byteLength
      // More than promised: not the file the document describes; stop reading it.
      if (size > expected.size) {
        await reader.cancel()
        return { kind: 'mismatch' }
      }
      parts.push(value)
      held += value.byteLength
      if (held >= FOLD_BYTES) {
        file = new Blob([file, ...(parts as BlobPart[])], { type })
        parts = []
        held = 0
      }
    }
  } catch (error) {
    // A chunk whose tag fails (altered, or cut short: age flags the last chunk) ends here.
    return { kind: isOutOfRoom(error) ? 'too-large' : 'damaged' }
  }
  if (size !== expected.size || bytesToHex(hash.digest()) !== expected.sha256) {
    return { kind: 'mismatch' }
  }
  return { kind: 'opened', file: new Blob([file, ...(parts as BlobPart[])], { type }) }
}
