import type { ContactSubmission } from './contact-schema'

/**
 * Submissions given back to the visitor after they had left the form (queued offline, then refused
 * by the backend). One waits here until the contact form takes it. The outbox keeps its copy until
 * the form has sent the submission again, under the same id; the form then calls `release`, which
 * deletes that copy. Plain data, no React.
 */
export type ReturnedSubmission = { submission: ContactSubmission; release: () => Promise<void> }

type Listener = () => void

let waiting: readonly ReturnedSubmission[] = []
let restoreTarget: (() => boolean) | null = null
const listeners = new Set<Listener>()

function emit(next: readonly ReturnedSubmission[]) {
  waiting = next
  listeners.forEach((listener) => listener())
}

export function returnSubmission(returned: ReturnedSubmission): void {
  if (waiting.some((candidate) => candidate.submission.id === returned.submission.id)) return
  emit([...waiting, returned])
}

/** Takes the oldest returned submission out of the queue, if any. */
export function takeReturnedSubmission(): ReturnedSubmission | undefined {
  const [first, ...rest] = waiting
  if (first) emit(rest)
  return first
}

export function getReturnedSubmissions(): readonly ReturnedSubmission[] {
  return waiting
}

export function subscribeToReturnedSubmissions(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * The contact form, while mounted, says whether it can take a submission back now (it cannot
 * while the visitor is typing something else: that would overwrite it).
 */
export function registerRestoreTarget(canRestore: () => boolean): () => void {
  restoreTarget = canRestore
  return () => {
    if (restoreTarget === canRestore) restoreTarget = null
  }
}

export function canRestoreIntoForm(): boolean {
  return restoreTarget?.() ?? false
}
