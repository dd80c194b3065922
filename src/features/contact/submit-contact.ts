import type { SealedRow } from '../../lib/database-types'
import { failureMessages, submitToasts } from './contact-copy'
import type { SubmissionDocument } from './sealing/seal-submission'
import type { SendSealed } from './send-to-supabase'

/**
 * What the visitor is told after pressing "Send Securely":
 * - sent: the row is stored (or already was: a duplicate id);
 * - queued: no answer, so the sealed row waits in the outbox on this device;
 * - failed: not sealed, refused, a server error, or nowhere to store it. Values stay in the form.
 */
export type SubmitResult =
  | { kind: 'sent' }
  | { kind: 'queued' }
  | { kind: 'failed'; message: string; detail: unknown }

export type SubmitDependencies = {
  /** Loads the sealer ahead of need; called when the visitor first focuses or types in the form. */
  prepare: () => void
  /** Encrypts the document to the agency's recipients; throws (a SealingError) when it cannot. */
  seal: (document: SubmissionDocument) => Promise<SealedRow>
  send: SendSealed
  /** Stores the sealed row, exactly as it would be sent, for the outbox to send later. */
  enqueue: (row: SealedRow) => Promise<void>
  /** `navigator.onLine`: when false, no request is tried at all. */
  isOnline: () => boolean
}

/**
 * Seals first, then sends or queues the sealed row: nothing readable is sent or stored. Sealing
 * fails closed: nothing leaves the form and the values stay.
 */
export async function submitContact(document: SubmissionDocument, deps: SubmitDependencies): Promise<SubmitResult> {
  let row: SealedRow
  try {
    row = await deps.seal(document)
  } catch (error) {
    // A SealingError's message is a whole sentence meant for the visitor; anything else is ours.
    const message = error instanceof Error && error.name === 'SealingError' ? error.message : submitToasts.notSealed
    return { kind: 'failed', message, detail: error }
  }
  if (!deps.isOnline()) return queue(row, deps)

  const outcome = await deps.send(row)
  switch (outcome.kind) {
    case 'delivered':
      return { kind: 'sent' }
    case 'no-answer':
      return queue(row, deps)
    case 'server-error':
    case 'refused':
      return { kind: 'failed', message: failureMessages[outcome.reason], detail: outcome.detail }
  }
}

async function queue(row: SealedRow, { enqueue }: SubmitDependencies): Promise<SubmitResult> {
  try {
    await enqueue(row)
    return { kind: 'queued' }
  } catch (error) {
    // No network and no storage (private mode, quota): the values stay in the form instead.
    return { kind: 'failed', message: submitToasts.notSaved, detail: error }
  }
}
