import { useQuery } from '@tanstack/react-query'
import type { Inquiry } from '../inquiries/inquiry'
import { loadThreadRows } from '../inquiries/inbox-data'
import { inboxEnv } from '../../lib/inbox-env'
import { openThreadMessage, type ThreadEntry } from './thread'

export type ThreadOutcome =
  { kind: 'loaded'; entries: ThreadEntry[] } | { kind: 'offline' } | { kind: 'failed' }

/**
 * Loaded again when a visitor's new message is seen or a reply is stored, the thread shown
 * meanwhile, and never another inquiry's, not even for a frame.
 */
export function useThread(inquiry: Inquiry, identities: readonly string[]) {
  return useQuery({
    queryKey: ['thread', inquiry.id, inquiry.awaiting_reply_since],
    queryFn: async (): Promise<ThreadOutcome> => {
      const stored = await loadThreadRows(inquiry.id)
      if (stored.kind !== 'rows') return stored
      if (!('document' in inquiry.opened)) return { kind: 'failed' }
      const signers = {
        agency: inboxEnv.agencySigningKeys,
        visitor: inquiry.opened.document.signing_key,
      }
      const open = (row: (typeof stored.rows)[number]) =>
        openThreadMessage(row, inquiry.id, identities, signers)
      return { kind: 'loaded', entries: await Promise.all(stored.rows.map(open)) }
    },
    // An inquiry this device could not open has no thread to show.
    enabled: 'document' in inquiry.opened,
    placeholderData: (previous, query) =>
      query?.queryKey[1] === inquiry.id ? previous : undefined,
  })
}
