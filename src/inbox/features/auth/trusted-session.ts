/**
 * The trusted device's period, and the browsers where it cannot hold. Pure functions: the app
 * decides what to do with their answers.
 */

const DAY_SECONDS = 24 * 3600

/** The claims of an access token this module reads (a GoTrue JWT: `amr`, `iat`). */
type Claims = { iat?: number; amr?: { method?: string; timestamp?: number }[] }

function claimsOf(accessToken: string): Claims | null {
  const payload = accessToken.split('.')[1]
  if (!payload) return null
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'))
    const claims: unknown = JSON.parse(json)
    return typeof claims === 'object' && claims !== null ? (claims as Claims) : null
  } catch {
    return null
  }
}

/**
 * When the session was signed into with the password, in seconds since the epoch: the `amr`
 * claim's password entry, which Auth keeps across refreshes (GoTrue's mfa_amr_claims). Null when
 * the token says nothing usable.
 */
export function signedInAt(accessToken: string): number | null {
  const claims = claimsOf(accessToken)
  if (!claims) return null
  const times = (claims.amr ?? [])
    .filter((entry) => entry.method === 'password' && typeof entry.timestamp === 'number')
    .map((entry) => entry.timestamp as number)
  return times.length > 0 ? Math.min(...times) : null
}

/**
 * Whether a session has outlived the agency's period (`days` from the password sign-in). A token
 * that does not say when it was signed into counts as outlived: signing in again is the safe side.
 */
export function sessionOutlived(accessToken: string, days: number, nowMs = Date.now()): boolean {
  const since = signedInAt(accessToken)
  return since === null || nowMs / 1000 - since > days * DAY_SECONDS
}

/**
 * An in-app browser that keeps its own storage apart from the phone's browser and the installed
 * inbox: Telegram's (its user agent names it), or any other iOS WKWebView (iOS's Safari and the
 * browsers built on it say "Safari/" in the user agent; a web view does not), unless the page runs
 * as the installed app (standalone). There the trusted device's session and the key are missing.
 */
export function isInAppBrowser(userAgent: string, standalone: boolean): boolean {
  if (/Telegram/i.test(userAgent)) return true
  const ios = /\b(iPhone|iPad|iPod)\b/.test(userAgent) && /AppleWebKit/.test(userAgent)
  return ios && !/Safari\//.test(userAgent) && !standalone
}
