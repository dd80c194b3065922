import type * as Backend from '../../lib/backend'
import type { SendQueued } from './outbox-types'

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
