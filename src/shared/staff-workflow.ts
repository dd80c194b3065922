import type { Database } from './database-types'

/**
 * The staff workflow's words and times, for every reader of the inbox (the app and
 * `npm run inbox`). The database decides what is overdue and what is purged; these say the same
 * to a person.
 */

type Status = Database['public']['Tables']['contact_submissions']['Row']['status']

/** What staff may set: `new` is where every row starts, never a destination. */
export const SETTABLE_STATUSES = [
  'responded',
  'engaged',
  'completed',
  'declined',
] as const satisfies readonly Status[]
export type SettableStatus = (typeof SETTABLE_STATUSES)[number]

/** The contact page's promise: an answer within 24 hours (private.overdue_submissions). */
export const RESPONSE_HOURS = 24

/** Closed rows are deleted by the hourly purge 24 hours after closing (private.purge_contact_submissions). */
export const CLOSED_PURGE_HOURS = 24
