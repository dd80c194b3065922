import { randomFiller, sealText } from '../../../shared/crypto/seal'
import { SealError } from '../../../shared/crypto/seal-error'
import {
  padThreadMessage,
  type ThreadMessageDraft,
} from '../../../shared/conversation/thread-message'
import type { SigningSeed } from '../../../shared/crypto/signing'

/**
 * An agency reply, signed with the agency's key (`seed`, from the unlocked identity), sealed to
 * the visitor's `reply_to` (from the sealed inquiry as this device first opened it) and to the
 * agency's recipients built into the inbox (never read from the database), so the visitor and
 * every colleague read it. Throws a SealError, 'no-recipients' without the agency's: a reply only
 * the visitor could read would leave colleagues blind.
 */
export async function sealReply(
  draft: ThreadMessageDraft,
  recipients: { replyTo: string; agency: readonly string[] },
  seed: SigningSeed,
): Promise<string> {
  if (recipients.agency.length === 0) throw new SealError('no-recipients')
  return sealText(padThreadMessage(draft, seed, randomFiller), [
    recipients.replyTo,
    ...recipients.agency,
  ])
}
