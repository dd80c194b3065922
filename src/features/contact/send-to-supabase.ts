import type { Outcome } from '../../shared/api/outcome'
import type { SealedRow } from '../../shared/database-types'
import type * as Backend from '../../lib/backend'
import type { FailureReason } from './contact-copy'
import type { SendQueued } from './outbox/outbox-flush'

/**
 * What one attempt to send came to (src/shared/api/outcome.ts); `reason` picks the visitor's
 * sentence in contact-copy.ts.
 */
export type SendOutcome<Reason extends string = FailureReason> = Outcome<Reason>

/** `signal`, when given, stops the insert early (the form's deadline); it then counts as no answer. */
export type SendSealed = (row: SealedRow, signal?: AbortSignal) => Promise<SendOutcome>

type Calls = Pick<typeof Backend, 'addToThread' | 'insertInquiry' | 'uploadAttachments'>

/**
 * Sends a queued item where it goes, with the backend's calls: an inquiry's files to Storage and
 * then its row to the table (a row never names an object not stored), a conversation's message to
 * `add_to_thread`.
 */
export const sendQueuedWith =
  (backend: Calls): SendQueued =>
  async (item, signal) => {
    if (item.kind === 'message') return backend.addToThread(item.message, signal)
    if (item.attachments?.length) {
      const uploaded = await backend.uploadAttachments(item.attachments)
      if (uploaded.kind !== 'delivered') return uploaded
    }
    return backend.insertInquiry(item.row, signal)
  }
