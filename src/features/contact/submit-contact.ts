import { submitToasts } from './contact-copy'
import type { ContactSubmission } from './contact-schema'
import type { SendSubmission } from './send-outcome'

/**
 * What the visitor is told after pressing "Send Securely":
 * - sent: the row is stored (or was already: a duplicate id);
 * - queued: no answer from the network, so the submission waits in the outbox on this device;
 * - failed: the backend answered and refused (or the outbox could not store it): values stay.
 */
export type SubmitResult =
  | { kind: 'sent' }
  | { kind: 'queued' }
  | { kind: 'failed'; message: string; cause: unknown }

export type SubmitDependencies = {
  send: SendSubmission
  /** Stores the submission, exactly as it would be sent, for a later flush. */
  enqueue: (submission: ContactSubmission) => Promise<void>
  /** `navigator.onLine`: when false, no request is tried at all. */
  isOnline: () => boolean
}

export async function submitContact(
  submission: ContactSubmission,
  { send, enqueue, isOnline }: SubmitDependencies,
): Promise<SubmitResult> {
  if (!isOnline()) return queue(submission, enqueue)

  const outcome = await send(submission)
  switch (outcome.kind) {
    case 'delivered':
      return { kind: 'sent' }
    case 'unreachable':
      return queue(submission, enqueue)
    case 'retryable':
    case 'rejected':
      return { kind: 'failed', message: outcome.message, cause: outcome }
  }
}

async function queue(
  submission: ContactSubmission,
  enqueue: SubmitDependencies['enqueue'],
): Promise<SubmitResult> {
  try {
    await enqueue(submission)
    return { kind: 'queued' }
  } catch (error) {
    // No network and no storage (private mode, quota): the values stay in the form instead.
    const reason = error instanceof Error ? error.message : String(error)
    return { kind: 'failed', message: submitToasts.notSaved(reason), cause: error }
  }
}
