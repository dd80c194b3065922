import { showToast } from '../../components/toast/toast-store'
import { submitToasts } from './contact-copy'
import type { FlushResult } from '../outbox/outbox-types'
import { formatQueuedAt, outboxCopy } from '../outbox/outbox-copy'
import type { SubmitResult } from './submit-contact'

/**
 * The one place where what happened to a message becomes what the visitor is told: a press of
 * Send (the form) and a round of the outbox (any page). The detail of a failure (status, code, the
 * server's words) goes to the console only; it never holds what the visitor typed.
 */

/** One press of Send leaves one toast: each outcome replaces the previous press's. */
const SUBMIT_TOAST_GROUP = 'contact-submit'

/** `near`: the Send button, which a phone's toast keeps clear of (focus has left it while it was disabled). */
export function announceSubmit(result: SubmitResult, near: HTMLElement | null): void {
  const aboutSend = { group: SUBMIT_TOAST_GROUP, near }
  switch (result.kind) {
    case 'sent':
      return void showToast({
        ...submitToasts.sent,
        variant: 'success',
        about: result.inquiry.id,
        ...aboutSend,
      })
    case 'queued':
      return void showToast({
        title: submitToasts.queued.title,
        // Chromium's Background Sync sends it, files and all, even once the tab is closed;
        // elsewhere it waits for the next visit.
        description:
          'SyncManager' in window
            ? submitToasts.queued.description
            : submitToasts.queued.descriptionNextVisit,
        variant: 'default',
        about: result.inquiry.id,
        ...aboutSend,
      })
    case 'failed':
      console.error('Contact submission failed:', result.detail)
      return void showToast({
        title: submitToasts.failed.title,
        description: result.message,
        variant: 'destructive',
        ...aboutSend,
      })
  }
}

/**
 * A toast for each message the round delivered, which replaces that message's "Saved on this
 * device" (same `about`), and one for its refusals.
 */
export function announceFlush(result: FlushResult): void {
  result.delivered.forEach((record) =>
    showToast({ ...submitToasts.sent, variant: 'success', about: record.id }),
  )
  announceRefused(result)
}

/**
 * One toast for a round's refusals, so none hides another: one message names its time and its
 * reason; several say how many, and point to the review, which lists each one. Its group is the
 * messages' ids: news of the same messages (a resend refused again) replaces the older toast,
 * while another round's refusals stand beside it.
 */
function announceRefused({ refused, counts }: FlushResult): void {
  refused.forEach(({ detail }) => console.error('A queued contact message was refused:', detail))
  const [first] = refused
  if (!first) return
  showToast({
    title: submitToasts.failed.title,
    description:
      refused.length === 1
        ? submitToasts.queuedRefused(formatQueuedAt(first.record.queued_at), first.message)
        : submitToasts.queuedRefusedSeveral(
            refused.length,
            outboxCopy.notDelivered(counts.needsAttention),
          ),
    variant: 'destructive',
    group: `outbox-refused:${refused.map(({ record }) => record.id).join(',')}`,
  })
}
