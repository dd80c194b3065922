/**
 * Sealing an agency reply in the inbox: a thread message from 'agency', encrypted with age to the
 * visitor's `reply_to` (read from inside their sealed inquiry, so the database cannot swap it) and
 * to the agency's recipients (built into the inbox, the same set the site seals to, never read
 * from the database), so the visitor and every colleague read it. Loaded with the key's code.
 */
import { armor, Encrypter } from 'age-encryption'
import {
  padThreadMessage,
  type ThreadMessageDraft,
} from '../../../shared/conversation/thread-message'
import { AGE_RECIPIENT } from '../../../shared/submission/sealed-document'
import { isAgeArmor, SEALED_MAX_CHARS } from '../../../shared/submission/sealed-row'

/**
 * Why a reply could not be sealed: no agency recipients in this build, or a malformed one; too
 * long for the database's bound once sealed (a long reply with many long file names); age failing.
 */
export class ReplySealingError extends Error {
  constructor(
    readonly problem: 'no-agency-recipients' | 'invalid-recipient' | 'too-long' | 'encrypt-failed',
  ) {
    super(`the reply could not be sealed (${problem})`)
    this.name = 'ReplySealingError'
  }
}

/** `length` random base64url characters: one UTF-8 byte each, nothing JSON escapes. */
function randomFiller(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((length * 3) / 4) + 3))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
    .slice(0, length)
}

/** The armored age file of `draft`, to the visitor's recipient and the agency's. */
export async function sealReply(
  draft: ThreadMessageDraft,
  recipients: { replyTo: string; agency: readonly string[] },
): Promise<string> {
  if (recipients.agency.length === 0) throw new ReplySealingError('no-agency-recipients')
  const all = [...new Set([recipients.replyTo, ...recipients.agency])]
  if (!all.every((recipient) => AGE_RECIPIENT.test(recipient))) {
    throw new ReplySealingError('invalid-recipient')
  }
  const encrypter = new Encrypter()
  try {
    for (const recipient of all) encrypter.addRecipient(recipient)
  } catch {
    throw new ReplySealingError('invalid-recipient')
  }
  const sealed = armor.encode(await encrypter.encrypt(padThreadMessage(draft, randomFiller)))
  if (sealed.length > SEALED_MAX_CHARS) throw new ReplySealingError('too-long')
  // What leaves here is an age armor the database takes, or nothing.
  if (!isAgeArmor(sealed)) throw new ReplySealingError('encrypt-failed')
  return sealed
}
