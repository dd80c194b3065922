/**
 * The one rule for what a backend answer means, for every call of both apps (insert, RPC, upload,
 * download) and for the page and the service worker alike. A call adds only what an answer means
 * for it alone (its 409, its 404, its codes); everything else is read here.
 */

/** Why something was not delivered, as far as the transport can tell; each call may add its own. */
export type TransportReason =
  | 'noAnswer'
  | 'busy'
  | 'serverError'
  | 'tooLarge'
  | 'unavailable'
  | 'notAccepted'
  /** A refusal that carries no words at all (spec §8's "Please try again later."). */
  | 'fallback'

/**
 * - delivered: stored (or already stored under its id);
 * - no-answer: nobody really answered (offline, a timeout, a gateway, busy): try again later;
 * - server-error: another 5xx: try again later, but it is the server's fault;
 * - refused: the same request will not fare better.
 * `detail` (status, code, the server's words) is for the console only, and never holds content.
 */
export type Outcome<Reason extends string = TransportReason> =
  | { kind: 'delivered' }
  | { kind: 'no-answer' | 'server-error' | 'refused'; reason: Reason; detail: string }

/** An answer as the rule reads it: the HTTP status (0 when none came) and the error, if any. */
export type Answer = {
  status: number
  error: { code?: string; message?: string } | null
}

export const DELIVERED = { kind: 'delivered' } as const

/** Gateways and proxies that answer for a server that did not: 408, 502-504, Cloudflare's 52x. */
const GATEWAYS = [408, 502, 503, 504, 520, 521, 522, 523, 524]

/** PostgreSQL's statement timeout (anon gets 3 s on Supabase): nothing was stored, try again. */
export const STATEMENT_TIMEOUT = '57014'

export const describeAnswer = ({ status, error }: Answer) =>
  `HTTP ${status}${error?.code ? ` ${error.code}` : ''}: ${(error?.message ?? '').trim().slice(0, 300)}`

/**
 * What `answer` came to. `own` gives the call's own meaning first (undefined: no special meaning).
 * An answer without an error that is not the call's success (`succeeded`) is no answer: a captive
 * portal, a proxy or a paused project answers 200 with nothing, and counting it as stored would
 * drop a message unsent.
 */
export function classify<Reason extends string = never>(
  answer: Answer,
  succeeded: (answer: Answer) => boolean = ({ status }) => status >= 200 && status < 300,
  own: (answer: Answer) => Outcome<Reason> | undefined = () => undefined,
): Outcome<Reason | TransportReason> {
  const mine = own(answer)
  if (mine) return mine
  const { status, error } = answer
  const detail = describeAnswer(answer)
  const outcome = (
    kind: 'no-answer' | 'server-error' | 'refused',
    reason: TransportReason,
  ): Outcome<TransportReason> => ({ kind, reason, detail })
  if (!error) {
    return succeeded(answer) ? DELIVERED : outcome('no-answer', 'noAnswer')
  }
  const code = error.code ?? ''
  if (status === 0 || status < 300 || GATEWAYS.includes(status))
    return outcome('no-answer', 'noAnswer')
  if (status === 429 || code === STATEMENT_TIMEOUT) return outcome('no-answer', 'busy')
  if (status >= 500) return outcome('server-error', 'serverError')
  if (status === 413 || code === '54000') return outcome('refused', 'tooLarge')
  if (status === 404 || status === 405 || code === 'PGRST202' || code === 'PGRST205')
    return outcome('refused', 'unavailable')
  return outcome('refused', error.message?.trim() || code ? 'notAccepted' : 'fallback')
}
