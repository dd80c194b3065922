import { showToast } from '../../components/toast/toast-store'
import { submitToasts } from './contact-copy'

/**
 * The spec's toasts for a submission's fate, the same whether the form sent it or the outbox did
 * later. The console line says which path it was, for whoever reads the logs.
 */

export function showSentToast(): void {
  showToast({ ...submitToasts.sent, variant: 'success' })
}

export function showQueuedToast(): void {
  showToast({ ...submitToasts.queued, variant: 'default' })
}

/** `message` is never empty: the Supabase boundary already put "Please try again later." there. */
export function showFailedToast(message: string, logLine: string, cause: unknown): void {
  console.error(logLine, cause)
  showToast({ title: submitToasts.failed.title, description: message, variant: 'destructive' })
}
