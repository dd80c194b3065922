import type { Receipt } from '../../shared/conversation/receipt'
import type { SealedRow } from '../../shared/database-types'
import type { SubmissionFields } from '../../shared/submission/fields'
import { failureMessages, submitToasts } from './contact-copy'
import type { OutboxItem } from './outbox/outbox-store'
import type { SendSealed } from './send-to-supabase'

/**
 * What the form hands the sealer: the validated fields, the draft's id (kept across retries), the
 * time Send was pressed and the browser's identification. The sealer makes the receipt and builds
 * the document from it (sealing/seal-submission.ts), in the crypto chunk.
 */
export type InquiryDraft = {
  fields: SubmissionFields
  id: string
  now: number
  userAgent: string
}

/**
 * A sealed inquiry: the row to send or queue (with its mailbox hash), and the receipt, which stays
 * in memory to be shown once on the panel. The two never travel together: only `row` is sent.
 */
export type SealedInquiry = { row: SealedRow & { mailbox_hash: string }; receipt: Receipt }

/** What the panel shows of an inquiry that left the form: its id, receipt and when Send was pressed. */
export type SentInquiry = { id: string; receipt: Receipt; sentAt: number }

/**
 * What the visitor is told after pressing "Send Securely":
 * - sent: the row is stored (or already was: a duplicate id);
 * - queued: no answer, so the sealed row waits in the outbox on this device;
 * - failed: not sealed, refused, a server error, or nowhere to store it. Values stay in the form.
 */
export type SubmitResult =
  | { kind: 'sent'; inquiry: SentInquiry }
  | { kind: 'queued'; inquiry: SentInquiry }
  | { kind: 'failed'; message: string; detail: unknown }

export type SubmitDependencies = {
  /** Loads the sealer ahead of need; called when the visitor first focuses or types in the form. */
  preload: () => void
  /**
   * Makes the receipt (or keeps `receipt`, this draft's from an earlier try) and seals the
   * document to the agency's recipients and the visitor's; throws (a SealingError) when it cannot.
   */
  seal: (draft: InquiryDraft, receipt: Receipt | null) => Promise<SealedInquiry>
  /** Sends the sealed row; `signal` aborts when the submit's deadline passes. */
  send: SendSealed
  /**
   * Stores the sealed row, exactly as it would be sent, for the outbox to send later. Once
   * `signal` has aborted, the form has kept the values and said so: it must then store nothing.
   */
  enqueue: (item: OutboxItem, signal?: AbortSignal) => Promise<void>
  /** `navigator.onLine`: when false, no request is tried at all. */
  isOnline: () => boolean
}

/** A step of the submit that is taking long enough to tell the visitor why they wait. */
export type SlowStep = 'sealing' | 'sending'

/** What the form learns while a submit runs. */
export type SubmitProgress = {
  /**
   * The row is sealed: from now on, nothing the visitor typed can leave or be stored readable.
   * Gets the draft's receipt, for the form to keep (in memory) should it have to try again.
   */
  onSealed?: (receipt: Receipt) => void
  /**
   * A step has been slow: 'sealing' once the encryption code has taken STILL_SENDING_AFTER_MS from
   * Send, 'sending' once the sealed row's send has (at once, if sealing was already slow).
   */
  onSlow?: (step: SlowStep) => void
}

/**
 * After this long "Encrypting & Sending..." gets a line saying the connection is slow: counted
 * from Send while the encryption code loads, and from sealing for the send itself.
 */
export const STILL_SENDING_AFTER_MS = 4_000

/**
 * The longest a visitor waits on "Encrypting & Sending..." from pressing Send until the row is
 * sealed and sent: loading the encryption code (if focusing the form has not already), sealing,
 * loading the sender and the Supabase client, and the insert. On a slow first visit each of those
 * loads can stall with no error at all, and only the insert has a timeout of its own. 20 s, like the
 * insert's: the still-sending line explains the wait from 4 s, and a sealed row that has not got
 * through by then is queued, where the outbox keeps trying while the visitor moves on. A row not
 * sealed by then fails closed, and every value stays in the form.
 */
export const SUBMIT_DEADLINE_MS = 20_000

/**
 * How long storing the sealed row on this device may take, on its own clock (queuing starts at the
 * deadline at the latest). IndexedDB answers in milliseconds; only the outbox's code can be slow,
 * as it loads on first use (focusing the form fetches it early). After that the values stay in the
 * form, so the visitor never waits more than 25 s in all.
 */
export const QUEUE_TIMEOUT_MS = 5_000

const TIMED_OUT = Symbol('timed out')

/** `race(work)`: `work`'s result, or TIMED_OUT once the time is up (the work itself cannot be stopped). */
function timer(milliseconds: number) {
  let handle: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<typeof TIMED_OUT>((resolve) => {
    handle = setTimeout(() => resolve(TIMED_OUT), milliseconds)
  })
  return {
    race: <T>(work: Promise<T>): Promise<T | typeof TIMED_OUT> => Promise.race([work, expired]),
    clear: () => clearTimeout(handle),
  }
}

/**
 * Seals first, then sends or queues the sealed row: nothing readable is sent or stored. Sealing
 * fails closed: nothing leaves the form and the values stay. Every step is bounded (see
 * SUBMIT_DEADLINE_MS), so the sending state always ends.
 */
export async function submitContact(
  draft: InquiryDraft,
  receipt: Receipt | null,
  deps: SubmitDependencies,
  { onSealed, onSlow }: SubmitProgress = {},
): Promise<SubmitResult> {
  const deadline = timer(SUBMIT_DEADLINE_MS)
  // "Still sending" says the message is already encrypted, so it waits for the seal: while the
  // encryption code is slow to load, 'sealing' is reported instead. Once sealed, a send gets its
  // own few seconds, unless the wait has already been long.
  let slowSealing = false
  let slowTimer = setTimeout(() => {
    slowSealing = true
    onSlow?.('sealing')
  }, STILL_SENDING_AFTER_MS)
  try {
    let sealedInquiry: SealedInquiry | typeof TIMED_OUT
    try {
      sealedInquiry = await deadline.race(deps.seal(draft, receipt))
    } catch (error) {
      // A SealingError's message is a whole sentence meant for the visitor; anything else is ours.
      const message =
        error instanceof Error && error.name === 'SealingError'
          ? error.message
          : submitToasts.notSealed
      return { kind: 'failed', message, detail: error }
    }
    // A seal that finishes later is never used: this press of Send has ended.
    if (sealedInquiry === TIMED_OUT) {
      return {
        kind: 'failed',
        message: submitToasts.notSealedInTime,
        detail: `not sealed within ${SUBMIT_DEADLINE_MS} ms`,
      }
    }
    clearTimeout(slowTimer)
    if (slowSealing) onSlow?.('sending')
    else slowTimer = setTimeout(() => onSlow?.('sending'), STILL_SENDING_AFTER_MS)
    const { row } = sealedInquiry
    const inquiry: SentInquiry = {
      id: row.id,
      receipt: sealedInquiry.receipt,
      sentAt: draft.now,
    }
    onSealed?.(inquiry.receipt)
    if (!deps.isOnline()) return await queue(row, inquiry, deps)

    const stop = new AbortController()
    const outcome = await deadline.race(deps.send(row, stop.signal))
    if (outcome === TIMED_OUT) {
      // The insert (or the code it needs) is still on its way: stop it, so the outbox's own try
      // does not share a slow link with it. Had it arrived, the outbox's retry answers 409.
      stop.abort()
      return await queue(row, inquiry, deps)
    }
    switch (outcome.kind) {
      case 'delivered':
        return { kind: 'sent', inquiry }
      case 'no-answer':
        return await queue(row, inquiry, deps)
      case 'server-error':
      case 'refused':
        return { kind: 'failed', message: failureMessages[outcome.reason], detail: outcome.detail }
    }
  } finally {
    deadline.clear()
    clearTimeout(slowTimer)
  }
}

async function queue(
  row: SealedRow,
  inquiry: SentInquiry,
  { enqueue }: SubmitDependencies,
): Promise<SubmitResult> {
  const limit = timer(QUEUE_TIMEOUT_MS)
  const stop = new AbortController()
  try {
    if ((await limit.race(enqueue({ kind: 'inquiry', row }, stop.signal))) !== TIMED_OUT) {
      return { kind: 'queued', inquiry }
    }
    // The outbox's code did not load in time: keep the values rather than leave the visitor
    // waiting, and tell the outbox not to store the row after all.
    stop.abort()
    return {
      kind: 'failed',
      message: submitToasts.notSaved,
      detail: `not stored within ${QUEUE_TIMEOUT_MS} ms`,
    }
  } catch (error) {
    // No network and no storage (private mode, quota): the values stay in the form instead.
    return { kind: 'failed', message: submitToasts.notSaved, detail: error }
  } finally {
    limit.clear()
  }
}
