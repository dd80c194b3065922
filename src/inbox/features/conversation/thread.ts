import type { Database } from '../../../shared/database-types'
import {
  isSignedBy,
  messageHash,
  parseThreadMessage,
  ThreadMessageError,
  type ThreadMessage,
} from '../../../shared/conversation/thread-message'
import { orderNotices, type OrderNotice } from '../../../shared/conversation/thread-order'
import { decryptSealed } from '../../../shared/crypto/open'

export type ThreadRow = Pick<
  Database['public']['Tables']['contact_messages']['Row'],
  'id' | 'direction' | 'sealed' | 'author_email' | 'created_at'
>

/**
 * `unsigned`: it opened, but its author's key did not sign it (an "agency" reply without the
 * agency's signature, a "visitor" follow-up without the key in the visitor's sealed inquiry):
 * someone with write access to the database sealed it, so its text is never shown.
 */
export type ThreadEntry = Omit<ThreadRow, 'sealed'> & {
  opened:
    { message: ThreadMessage; hash: string } | { problem: 'other-key' | 'damaged' | 'unsigned' }
}

/** Whose signature makes a message genuine: the agency's keys (built in), the visitor's one. */
export type ThreadSigners = { agency: readonly string[]; visitor: string }

export async function openThreadMessage(
  row: ThreadRow,
  inquiryId: string,
  identities: readonly string[],
  signers: ThreadSigners,
): Promise<ThreadEntry> {
  const { sealed, ...facts } = row
  const decrypted = await decryptSealed(sealed, identities)
  if ('problem' in decrypted) {
    return {
      ...facts,
      opened: { problem: decrypted.problem === 'other-key' ? 'other-key' : 'damaged' },
    }
  }
  try {
    const message = parseThreadMessage(decrypted.text, {
      id: row.id,
      inquiryId,
      direction: row.direction,
    })
    const keys = message.from === 'agency' ? signers.agency : [signers.visitor]
    if (!isSignedBy(message, keys)) return { ...facts, opened: { problem: 'unsigned' } }
    return { ...facts, opened: { message, hash: messageHash(message) } }
  } catch (error) {
    // Not a message of this row (moved from another thread, or damaged): said, never shown.
    if (error instanceof ThreadMessageError) return { ...facts, opened: { problem: 'damaged' } }
    throw error
  }
}

/** What the order of the genuine messages says (thread-order.ts). */
export const entryNotices = (entries: readonly ThreadEntry[]): OrderNotice[] =>
  orderNotices(placedOf(entries))

export const placedOf = (entries: readonly ThreadEntry[]) =>
  entries.flatMap((entry) =>
    'message' in entry.opened ? [{ ...entry.opened.message, hash: entry.opened.hash }] : [],
  )
