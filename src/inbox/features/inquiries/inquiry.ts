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
  /** The opened document, or why it could not be opened (never the error's text: it may quote). */
  opened: { document: SealedDocument; labels: OptionLabels } | { problem: 'other-key' | 'damaged' }
}

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
