import type { ContactSubmission } from './contact-schema'

/**
 * What one attempt to insert a submission came to. The submit path and the outbox both act on
 * this, never on HTTP details:
 * - delivered: 2xx, or 409 for a duplicate id (the row was already received);
 * - unreachable: no answer at all (offline, DNS, CORS, connection dropped);
 * - retryable: the backend answered but may accept later (5xx, 429);
 * - rejected: the backend refused this submission (any other answer); retrying will not help.
 */
export type SendOutcome =
  | { kind: 'delivered' }
  | { kind: 'unreachable'; message: string }
  | { kind: 'retryable'; status: number; message: string }
  | { kind: 'rejected'; status: number; message: string }

export type SendSubmission = (submission: ContactSubmission) => Promise<SendOutcome>
