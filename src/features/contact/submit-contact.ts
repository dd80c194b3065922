import type { Receipt } from '../../shared/conversation/receipt'
import type { SealedRow } from '../../shared/database-types'
import type { SubmissionFields } from '../../shared/submission/fields'
import type { SealedAttachment } from '../../shared/submission/sealed-document'
import { failureMessages, sealingFailure, submitToasts } from './contact-copy'
import type {
  OutboxItem,
  QueuedAttachment,
  QueuedInquiryRow,
  SendOutcome,
} from '../outbox/outbox-types'

/** `signal`, when given, stops the insert early (the form's deadline); it then counts as no answer. */
export type SendSealed = (row: SealedRow, signal?: AbortSignal) => Promise<SendOutcome>

/** `sent` of `total` ciphertext bytes stored so far. */
export type UploadProgress = (sent: number, total: number) => void

/**
 * What the form hands the sealer: the validated fields, the draft's id (kept across retries), the
 * time Send was pressed and the browser's identification. The sealer makes the receipt and builds
 * the document from it (sealing/seal-submission.ts).
 */
export type InquiryDraft = {
  fields: SubmissionFields
  id: string
  now: number
  userAgent: string
  /** The files attached, already checked against the limits (attachments.ts). */
  files?: readonly File[]
  /** What an earlier try of this draft sealed: a retry keeps the receipt and reuses the files. */
  sealed?: SealedDraft
}

/** A draft's receipt and sealed files, kept in memory between tries. */
export type SealedDraft = { receipt: Receipt; files: readonly SealedFile[] }

/**
 * One attached file once sealed: the picked file it came from (so a retry of the draft reuses it,
 * same object, same ciphertext), what the document says of it, and its ciphertext. The page keeps
 * it in memory; only `attachment.object` and `ciphertext` are ever sent or stored.
 */
export type SealedFile = { source: Blob; attachment: SealedAttachment; ciphertext: Blob }

/**
 * A sealed inquiry: the row to send or queue (with its mailbox hash), and the receipt, which stays
 * in memory to be shown once on the panel. The two never travel together: only `row` is sent.
 */
export type SealedInquiry = {
  row: QueuedInquiryRow
  receipt: Receipt
  /** The sealed files, in the document's order (none when nothing was attached). */
  files: SealedFile[]
}

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
  | {
      kind: 'queued'
      inquiry: SentInquiry
    }
  | { kind: 'failed'; message: string; detail: unknown }

export type SubmitDependencies = {
  /** Loads the sealer ahead of need; called when the visitor first focuses or types in the form. */
  preload: () => void
  /**
   * Loads what seals files ahead of need (a WebAssembly engine); called when the
   * visitor attaches a file, never before, so a message without files never fetches it.
   */
  preloadFiles: () => void
  /**
   * Makes the receipt (or keeps `receipt`, this draft's from an earlier try) and seals the
   * document to the agency's recipients and the visitor's; throws a SealError when it cannot.
   */
  seal: (
    draft: InquiryDraft,
    receipt: Receipt | null,
    earlierFiles?: readonly SealedFile[],
    onSealedBytes?: (bytes: number) => void,
  ) => Promise<SealedInquiry>
  /** Sends the sealed row; `signal` aborts when the submit's deadline passes. */
  send: SendSealed
  /**
   * Uploads the sealed files (before the row: a row never names an object not stored). Answers
   * like `send`; `onProgress` gets the ciphertext bytes stored so far, of the total.
   */
  upload: (files: readonly QueuedAttachment[], onProgress?: UploadProgress) => Promise<SendOutcome>
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
   * Gets the draft's receipt and sealed files, for the form to keep (in memory) should it have to
   * try again.
   */
  onSealed?: (receipt: Receipt, files: SealedFile[]) => void
  /** How far the files are: sealed plaintext bytes, then stored ciphertext bytes, as a share. */
  onFileProgress?: (step: 'sealing' | 'uploading', done: number, total: number) => void
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

/**
 * Attached files add to the deadline for sealing: at this many bytes a second or more (a slow
 * phone seals several times faster), 125 MB of files add 125 s. Uploading has no deadline of its
 * own: tus-js-client retries a stalled chunk, and an upload that gets no answer is queued.
 */
export const SEALING_FLOOR_BYTES_PER_SECOND = 1024 * 1024

/** The deadline for sealing a draft: SUBMIT_DEADLINE_MS, plus time for its files. */
export function sealingDeadline(files: readonly Blob[] = []): number {
  const bytes = files.reduce((sum, file) => sum + file.size, 0)
  return SUBMIT_DEADLINE_MS + Math.ceil((bytes / SEALING_FLOOR_BYTES_PER_SECOND) * 1000)
}

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
  deps: SubmitDependencies,
  { onSealed, onSlow, onFileProgress }: SubmitProgress = {},
): Promise<SubmitResult> {
  const files = draft.files ?? []
  let deadline = timer(sealingDeadline(files))
  const plainTotal = files.reduce((sum, file) => sum + file.size, 0)
  let sealedBytes = 0
  const onSealedBytes = (bytes: number) => {
    sealedBytes += bytes
    onFileProgress?.('sealing', sealedBytes, plainTotal)
  }
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
      sealedInquiry = await deadline.race(
        deps.seal(draft, draft.sealed?.receipt ?? null, draft.sealed?.files ?? [], onSealedBytes),
      )
    } catch (error) {
      return { kind: 'failed', message: sealingFailure(error), detail: error }
    }
    // A seal that finishes later is never used: this press of Send has ended.
    if (sealedInquiry === TIMED_OUT) {
      return {
        kind: 'failed',
        message: submitToasts.notSealedInTime,
        detail: `not sealed within ${sealingDeadline(files)} ms`,
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
    onSealed?.(inquiry.receipt, sealedInquiry.files)
    // Only the object's name and its ciphertext travel or wait: never the picked file.
    const attachments = sealedInquiry.files.map(({ attachment, ciphertext }) => ({
      object: attachment.object,
      ciphertext,
    }))
    if (!deps.isOnline()) return await queue(row, attachments, inquiry, deps)

    if (attachments.length > 0) {
      // Uploads take as long as they take (each chunk retried); the row's own send gets a fresh
      // deadline once they are all stored.
      deadline.clear()
      const uploaded = await deps.upload(attachments, (sent, total) =>
        onFileProgress?.('uploading', sent, total),
      )
      switch (uploaded.kind) {
        case 'delivered':
          break
        case 'no-answer':
          return await queue(row, attachments, inquiry, deps)
        case 'server-error':
        case 'refused':
          return {
            kind: 'failed',
            message: failureMessages[uploaded.reason],
            detail: uploaded.detail,
          }
      }
      deadline = timer(SUBMIT_DEADLINE_MS)
    }

    const stop = new AbortController()
    const outcome = await deadline.race(deps.send(row, stop.signal))
    if (outcome === TIMED_OUT) {
      // The insert (or the code it needs) is still on its way: stop it, so the outbox's own try
      // does not share a slow link with it. Had it arrived, the outbox's retry answers 409.
      stop.abort()
      return await queue(row, attachments, inquiry, deps)
    }
    switch (outcome.kind) {
      case 'delivered':
        return { kind: 'sent', inquiry }
      case 'no-answer':
        return await queue(row, attachments, inquiry, deps)
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
  row: QueuedInquiryRow,
  attachments: QueuedAttachment[],
  inquiry: SentInquiry,
  { enqueue }: SubmitDependencies,
): Promise<SubmitResult> {
  // Writing megabytes of ciphertext to IndexedDB takes longer than a row: a second per 10 MB more.
  const bytes = attachments.reduce((sum, file) => sum + file.ciphertext.size, 0)
  const limit = timer(QUEUE_TIMEOUT_MS + Math.ceil(bytes / 10_000))
  const stop = new AbortController()
  const item: OutboxItem = attachments.length
    ? { kind: 'inquiry', row, attachments }
    : { kind: 'inquiry', row }
  try {
    if ((await limit.race(enqueue(item, stop.signal))) !== TIMED_OUT) {
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
    const full = error instanceof DOMException && error.name === 'QuotaExceededError'
    return {
      kind: 'failed',
      message: full && attachments.length ? submitToasts.notSavedQuota : submitToasts.notSaved,
      detail: error,
    }
  } finally {
    limit.clear()
  }
}
