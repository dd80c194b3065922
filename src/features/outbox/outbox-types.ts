import type { SealedRow } from '../../shared/database-types'
import type { Outcome } from '../../shared/api/outcome'
import type { failureMessages, FailureReason } from '../contact/contact-copy'
import type { ThreadFailureReason } from '../replies/thread-copy'
import type { OutboxCounts } from './outbox-definitions'

/** What the outbox queues, sends and reports, shared by its store, its round and its senders. */

/**
 * A message of a conversation, as `add_to_thread` takes it. `mailbox_token` is neither the receipt
 * nor a key: it opens no message, but it lets whoever holds it read the thread's ciphertext and
 * write to it, so the outbox keeps it only until the message is delivered (or discarded).
 */
export type QueuedThreadMessage = { id: string; mailbox_token: string; sealed: string }

/**
 * A sealed attachment waiting with its inquiry: its object's name (two random UUIDs) and its
 * ciphertext, a binary age file kept as a Blob. Nothing else of the file (no name, no type).
 */
export type QueuedAttachment = { object: string; ciphertext: Blob }

/** An inquiry's row as the outbox sends it: always with its mailbox hash. */
export type QueuedInquiryRow = Required<SealedRow>

/**
 * What the outbox sends: an inquiry's row (with its sealed files, uploaded before the row), or a
 * message added to a conversation.
 */
export type OutboxItem =
  | { kind: 'inquiry'; row: QueuedInquiryRow; attachments?: QueuedAttachment[] }
  | { kind: 'message'; message: QueuedThreadMessage }

/** Bookkeeping every record carries, whatever it holds. */
export type RecordBookkeeping = {
  /** When it was queued, ISO 8601: how the visitor tells messages apart ("queued at 14:05"). */
  queued_at: string
  attempts: number
  /** Epoch milliseconds before which the flush does not try it again. */
  next_attempt_at: number
  state: 'pending' | 'needs-attention'
  /** A sentence from contact-copy.ts, never the server's own words. */
  last_error: string | null
}

/**
 * One queued message: exactly what will be sent, plus bookkeeping, written as version `v` 1.
 * - `kind: 'inquiry'`: the row with its `mailbox_hash` and, when files were attached,
 *   `attachments` (their objects' names and ciphertext);
 * - `kind: 'message'`: a conversation's message (its id, the mailbox token, the sealed message).
 * - `pending`: sent by the next flush once `next_attempt_at` has passed;
 * - `needs-attention`: refused by the backend, or damaged on disk; never sent again on its own,
 *   kept until the visitor resends or discards it.
 */
export type OutboxRecord = RecordBookkeeping &
  (
    | ({ v: 1; kind: 'inquiry'; attachments?: QueuedAttachment[] } & QueuedInquiryRow)
    | ({ v: 1; kind: 'message' } & QueuedThreadMessage)
  )

/**
 * What one attempt to send came to (src/shared/api/outcome.ts); `reason` picks the visitor's
 * sentence in contact-copy.ts.
 */
export type SendOutcome<Reason extends string = FailureReason> = Outcome<Reason>

/** Why a queued item was not delivered: an inquiry's reasons, and a conversation's. */
export type OutboxFailureReason = keyof typeof failureMessages | ThreadFailureReason

/** Sends one queued item; `signal`, when given, stops it early (it then counts as no answer). */
export type SendQueued = (
  item: OutboxItem,
  signal?: AbortSignal,
) => Promise<SendOutcome<OutboxFailureReason>>

export type RefusedRecord = { record: OutboxRecord; message: string; detail: string }

export type FlushResult = {
  /**
   * Received by the backend in this round, and already removed (or, told at a page's start,
   * delivered by the service worker's Background Sync while no page was open: id and time only).
   */
  delivered: Array<Pick<OutboxRecord, 'id' | 'queued_at'>>
  /** Marked `needs-attention` in this round. */
  refused: RefusedRecord[]
  /** What the outbox holds after the round, so nobody counts again. */
  counts: OutboxCounts
  /** When the next round is worth running (epoch ms), or null if nothing is pending. */
  nextAttemptAt: number | null
  /** Another flusher held the lock: this call sent nothing. */
  skipped: boolean
}
