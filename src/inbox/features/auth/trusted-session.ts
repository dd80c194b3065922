const DAY_SECONDS = 24 * 3600

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
 * When the session was signed into with the password, in seconds: the `amr` claim's password
 * entry, which Auth keeps across refreshes (its `iat` moves with each).
 */
export function signedInAt(accessToken: string): number | null {
  const claims = claimsOf(accessToken)
  if (!claims) return null
  const times = (claims.amr ?? [])
    .filter((entry) => entry.method === 'password' && typeof entry.timestamp === 'number')
    .map((entry) => entry.timestamp as number)
  return times.length > 0 ? Math.min(...times) : null
}

/** Past `days` from the password sign-in; a token that does not say when counts as past. */
export function sessionOutlived(accessToken: string, days: number, nowMs = Date.now()): boolean {
  const since = signedInAt(accessToken)
  return since === null || nowMs / 1000 - since > days * DAY_SECONDS
}

/**
 * An in-app browser, which keeps its own storage (so neither the kept session nor the key is
 * there): Telegram's, or any iOS web view (iOS browsers say "Safari/"; a web view does not),
 * unless the page runs as the installed app.
 */
export function isInAppBrowser(userAgent: string, standalone: boolean): boolean {
  if (/Telegram/i.test(userAgent)) return true
  const ios = /\b(iPhone|iPad|iPod)\b/.test(userAgent) && /AppleWebKit/.test(userAgent)
  return ios && !/Safari\//.test(userAgent) && !standalone
}
