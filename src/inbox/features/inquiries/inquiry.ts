import type { Database } from '../../../shared/database-types'
import { CLOSED_PURGE_HOURS, RESPONSE_HOURS } from '../../../shared/staff-workflow'
import type { SealedDocument } from '../../../shared/submission/sealed-document'

export type InquiryRow = Pick<
  Database['public']['Tables']['contact_submissions']['Row'],
  | 'id'
  | 'key_id'
  | 'sealed'
  | 'status'
  | 'created_at'
  | 'responded_at'
  | 'completed_at'
  | 'responded_by'
  | 'awaiting_reply_since'
>

export type Inquiry = InquiryRow & {
  overdue: boolean
  /**
   * The opened document, or why it is not shown (never the error's text: it may quote):
   * `wrong-id`, a document of another inquiry copied into this row; `replaced`, the row no longer
   * holds the document this device first opened for it.
   */
  opened: { document: SealedDocument; labels: OptionLabels } | { problem: InquiryProblem }
}

export type InquiryProblem = 'other-key' | 'damaged' | 'wrong-id' | 'replaced'

export type OptionLabels = {
  projectType: string | null
  budget: string | null
}

export const dueAt = (inquiry: InquiryRow) =>
  new Date(Date.parse(inquiry.created_at) + RESPONSE_HOURS * 3_600_000)

export const purgeAfter = (inquiry: InquiryRow) =>
  inquiry.completed_at
    ? new Date(Date.parse(inquiry.completed_at) + (CLOSED_PURGE_HOURS + 1) * 3_600_000)
    : null
