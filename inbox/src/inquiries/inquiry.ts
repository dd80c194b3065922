import type { SealedDocument } from '../../../src/shared/submission/sealed-document'

/** A row as the inbox reads it, and what this device could make of it. */
export type InquiryRow = {
  id: string
  key_id: string | null
  sealed: string | null
  status: 'new' | 'responded' | 'engaged' | 'completed' | 'declined'
  created_at: string
  responded_at: string | null
  completed_at: string | null
}

export type Inquiry = InquiryRow & {
  overdue: boolean
  /** The opened document, or why it could not be opened (never the error's text: it may quote). */
  opened: { document: SealedDocument; labels: OptionLabels } | { problem: 'other-key' | 'damaged' }
}

/** The dropdowns' labels for the document's option values, as the visitor saw them. */
export type OptionLabels = {
  projectType: string | null
  budget: string | null
}

/** The promise on the contact page; overdue itself is what the database's view says. */
export const RESPONSE_HOURS = 24
/** Closed rows are deleted by the database's hourly purge 24 hours after closing. */
export const PURGE_AFTER_HOURS = 24

export const dueAt = (inquiry: InquiryRow) =>
  new Date(Date.parse(inquiry.created_at) + RESPONSE_HOURS * 3_600_000)

export const purgeAfter = (inquiry: InquiryRow) =>
  inquiry.completed_at
    ? new Date(Date.parse(inquiry.completed_at) + (PURGE_AFTER_HOURS + 1) * 3_600_000)
    : null
