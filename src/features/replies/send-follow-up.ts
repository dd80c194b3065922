import { useRef, useState } from 'react'
import {
  REQUIRED_FIELDS_MESSAGE,
  failureMessages,
  sealingFailure,
  submitToasts,
} from '../contact/contact-copy'
import type { OutboxFailureReason } from '../outbox/outbox-types'
import type { OutboxItem, QueuedThreadMessage } from '../outbox/outbox-types'
import type { SendOutcome } from '../outbox/outbox-types'
import { threadFailureMessages } from './thread-copy'
import { conversationCopy as copy } from './replies-copy'
import type { ThreadPlace } from '../../shared/conversation/thread-message'

/** What "Send securely" on /replies needs: seal, send, queue, and whether the browser is online. */
export type FollowUpDependencies = {
  /**
   * Seals and signs the body (with the draft's id, kept across retries, and its place in the
   * thread as shown); throws a SealError.
   */
  seal: (body: string, id: string, now: number, place: ThreadPlace) => Promise<QueuedThreadMessage>
  send: (message: QueuedThreadMessage) => Promise<SendOutcome<OutboxFailureReason>>
  enqueue: (item: OutboxItem) => Promise<void>
  isOnline: () => boolean
}

export type FollowUpResult =
  { kind: 'sent' } | { kind: 'queued' } | { kind: 'failed'; message: string; detail: unknown }

const sentence: Record<OutboxFailureReason, string> = {
  ...failureMessages,
  ...threadFailureMessages,
}

/**
 * A follow-up, by the contact form's rules: empty after trimming is refused with the form's
 * sentence; it is sealed before anything else; offline or with no usable answer the sealed message
 * is queued in the same outbox (with the mailbox token, until sent); a refusal keeps the text.
 */
export async function sendFollowUp(
  body: string,
  id: string,
  place: ThreadPlace,
  deps: FollowUpDependencies,
): Promise<FollowUpResult> {
  if (body.trim() === '') {
    return { kind: 'failed', message: REQUIRED_FIELDS_MESSAGE, detail: 'empty' }
  }
  let message: QueuedThreadMessage
  try {
    message = await deps.seal(body, id, Date.now(), place)
  } catch (error) {
    return { kind: 'failed', message: sealingFailure(error), detail: error }
  }
  if (deps.isOnline()) {
    const outcome = await deps.send(message)
    if (outcome.kind === 'delivered') return { kind: 'sent' }
    if (outcome.kind !== 'no-answer') {
      return { kind: 'failed', message: sentence[outcome.reason], detail: outcome.detail }
    }
  }
  try {
    await deps.enqueue({ kind: 'message', message })
    return { kind: 'queued' }
  } catch (error) {
    return { kind: 'failed', message: submitToasts.notSaved, detail: error }
  }
}

/**
 * The follow-up form's draft: its id (kept across retries, so a retry that reaches a stored message
 * answers 409), whether it is on its way, and what the status line says. `send` answers the id of
 * a message sent or queued, or null when the text stays in the field; `place` is where it stands in
 * the thread as shown.
 */
export function useFollowUp(deps: FollowUpDependencies) {
  const draftId = useRef<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null)
  const send = async (body: string, place: ThreadPlace): Promise<string | null> => {
    setBusy(true)
    draftId.current ??= crypto.randomUUID()
    const id = draftId.current
    const result = await sendFollowUp(body, id, place, deps)
    setBusy(false)
    if (result.kind === 'failed') {
      if (result.detail !== 'empty') console.error('A follow-up was not sent:', result.detail)
      setStatus({ text: result.message, error: true })
      return null
    }
    draftId.current = null
    setStatus({ text: result.kind === 'sent' ? copy.sent : copy.queued, error: false })
    return id
  }
  return { busy, status, send }
}
