import type { Database } from '../../../shared/database-types'
import {
  parseThreadMessage,
  ThreadMessageError,
  type ThreadMessage,
} from '../../../shared/conversation/thread-message'
import { decryptSealed } from '../../../shared/crypto/open'

export type ThreadRow = Pick<
  Database['public']['Tables']['contact_messages']['Row'],
  'id' | 'direction' | 'sealed' | 'author_email' | 'created_at'
>

export type ThreadEntry = Omit<ThreadRow, 'sealed'> & {
  opened: { message: ThreadMessage } | { problem: 'other-key' | 'damaged' }
}

export async function openThreadMessage(
  row: ThreadRow,
  inquiryId: string,
  identities: readonly string[],
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
    return { ...facts, opened: { message } }
  } catch (error) {
    // Not a message of this row (moved from another thread, or damaged): said, never shown.
    if (error instanceof ThreadMessageError) return { ...facts, opened: { problem: 'damaged' } }
    throw error
  }
}
