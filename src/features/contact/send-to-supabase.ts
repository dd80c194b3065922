import type { ContactSubmission } from './contact-schema'
import type { SendOutcome } from './send-outcome'

/** The part of supabase-js's answer this code reads (spec §7: only the error is inspected). */
export type InsertAnswer = {
  error: { message?: string; code?: string } | null
  status: number
}

export const FALLBACK_ERROR_MESSAGE = 'Please try again later.'

/**
 * How long one insert may take before it counts as "no answer". Without a limit a stalled mobile
 * connection would leave the button on "Encrypting & Sending..." (and the outbox's lock held) for
 * minutes; aborted, the submission is queued and retried instead.
 */
export const SEND_TIMEOUT_MS = 15_000

/** The primary key: a duplicate of it, and only of it, means "this very submission is stored". */
const PRIMARY_KEY_CONSTRAINT = '"contact_submissions_pkey"'

/**
 * Turns supabase-js's answer into a `SendOutcome`. supabase-js resolves (never throws) with
 * status 0 when fetch itself failed: offline, connection refused, CORS, an answer lost on the way.
 */
export function classifyInsertAnswer({ error, status }: InsertAnswer): SendOutcome {
  if (!error) return { kind: 'delivered' }
  const message = error.message?.trim() || FALLBACK_ERROR_MESSAGE
  // The id is made in the browser: a duplicate id means this very submission was already stored.
  // A duplicate on any other unique constraint would be a real refusal.
  if (status === 409 && error.code === '23505' && message.includes(PRIMARY_KEY_CONSTRAINT)) {
    return { kind: 'delivered' }
  }
  if (status === 0) return { kind: 'unreachable', message }
  if (status === 408 || status === 429 || status >= 500) return { kind: 'retryable', status, message }
  return { kind: 'rejected', status, message }
}

/** The real sender: a plain insert with no `.select()`, so anon needs no SELECT right (RLS). */
export async function sendToSupabase(submission: ContactSubmission): Promise<SendOutcome> {
  try {
    // Loading the client can fail too (offline before the service worker has cached it).
    const { supabase } = await import('../../lib/supabase')
    const answer = await supabase
      .from('contact_submissions')
      .insert(submission)
      .abortSignal(timeoutSignal(SEND_TIMEOUT_MS))
    return classifyInsertAnswer(answer)
  } catch (error) {
    return { kind: 'unreachable', message: error instanceof Error ? error.message : String(error) }
  }
}

function timeoutSignal(milliseconds: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(milliseconds)
  const controller = new AbortController()
  setTimeout(() => controller.abort(), milliseconds)
  return controller.signal
}
