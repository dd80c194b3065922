/**
 * How long one request may take before it counts as no answer. A sealed brief is 1 to 24 KB; on a
 * poor mobile link the TLS handshake, the CORS preflight and the upload take 5 to 10 s, so 20 s
 * leaves room for the slow-but-working case; after that the id makes a late duplicate harmless.
 */
export const SEND_TIMEOUT_MS = 20_000

/**
 * A signal that aborts after `milliseconds`, or when `caller` does. By hand, not with
 * `AbortSignal.any`: Safari has that only since 17.4, and there every send would throw.
 */
export function deadline(milliseconds: number, caller?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(milliseconds)
  if (!caller) return timeout
  const either = new AbortController()
  for (const source of [timeout, caller]) {
    if (source.aborted) either.abort(source.reason)
    else source.addEventListener('abort', () => either.abort(source.reason))
  }
  return either.signal
}
