import { recipientsOf } from '../../../shared/age-identity-lines'
import { decryptSealed } from '../../../shared/crypto/open'
import { sealText } from '../../../shared/crypto/seal'
import { deviceStore } from '../../lib/device-store'
import type { Inquiry } from './inquiry'

/**
 * What this device first opened for each inquiry: the SHA-256 of the row's sealed text. Anyone who
 * can write rows can put a new document, sealed with the agency's public key, in place of one;
 * once a device has opened an inquiry, it notices. Kept beside the key, sealed to the key's own
 * recipients, so a copy of the device's storage does not say which inquiries were read.
 */
export type PinBook = {
  /** The inquiry as opened, or as `replaced` when its row no longer holds what was first opened. */
  check: (inquiry: Inquiry) => Promise<Inquiry>
  /** Writes the pins added since the last call (one write at a time). */
  keep: () => Promise<void>
}

const vault = deviceStore('inbox-key', 'key')
const RECORD = 'pins'

export async function sealedHash(sealed: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(sealed))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

async function readPins(identities: readonly string[]): Promise<Record<string, string>> {
  const stored = await vault.get<string>(RECORD)
  if (!stored) return {}
  const opened = await decryptSealed(stored, identities)
  // Sealed to a key this device no longer holds: what it pinned cannot be read, nor trusted.
  if ('problem' in opened) return {}
  return JSON.parse(opened.text) as Record<string, string>
}

/** The pins kept on this device for the key `identities`, read once per list. */
export async function pinBook(identities: readonly string[]): Promise<PinBook> {
  const pins = await readPins(identities)
  let added = false
  let writing = Promise.resolve()
  return {
    async check(inquiry) {
      if (!('document' in inquiry.opened) || !inquiry.sealed) return inquiry
      const hash = await sealedHash(inquiry.sealed)
      const first = pins[inquiry.id]
      if (first === undefined) {
        pins[inquiry.id] = hash
        added = true
      } else if (first !== hash) return { ...inquiry, opened: { problem: 'replaced' } }
      return inquiry
    },
    keep() {
      if (!added) return writing
      added = false
      writing = writing.then(async () => {
        const recipients = await recipientsOf(identities)
        if (!recipients) return
        // Another tab may have pinned others meanwhile: theirs are kept, a first pin is never moved.
        const latest = { ...pins, ...(await readPins(identities)) }
        Object.assign(pins, latest)
        await vault.put(RECORD, await sealText(JSON.stringify(latest), recipients))
      })
      return writing
    },
  }
}
