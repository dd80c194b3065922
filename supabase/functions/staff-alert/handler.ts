/**
 * The staff-alert Edge Function's request handler: a plain fetch handler (Web APIs only), so it
 * runs in Supabase's Deno runtime (index.ts) and in Node's unit tests alike.
 *
 * The database's AFTER INSERT trigger (through pg_net) and the overdue sweep post
 * `{"event":"contact.new"|"contact.overdue"|"contact.limit"|"contact.message","ref":"1a2b3c4d"|null}`
 * (contact.message: the visitor wrote in the inquiry's sealed thread) with the shared
 * secret in `x-staff-alert-secret`; this forwards one content-free line to a Telegram chat.
 * Nothing a visitor wrote ever reaches it, and it logs only the event, the ref and status codes.
 */

import {
  inboxLink,
  isStaffAlertEvent,
  SECRET_HEADER,
  type StaffAlert,
} from '../_shared/staff-alert-contract.ts'

export type StaffAlertEnv = {
  /** Shared with the database (Vault) so that only it can trigger alerts. */
  STAFF_ALERT_SECRET?: string | undefined
  TELEGRAM_BOT_TOKEN?: string | undefined
  TELEGRAM_CHAT_ID?: string | undefined
  /** Telegram's Bot API origin; tests point it at a local server. */
  TELEGRAM_API_BASE?: string | undefined
  /** The staff inbox's address (https://inbox.example.com): alerts then link to the inquiry. */
  INBOX_URL?: string | undefined
}

export type StaffAlertDeps = {
  fetch: typeof fetch
  sleep: (ms: number) => Promise<void>
  now: () => Date
  log: (line: string) => void
  /** Attempts at Telegram in all, for a 5xx, a 429 or a network error. */
  maxAttempts: number
}

export { SECRET_HEADER } from '../_shared/staff-alert-contract.ts'
const DEFAULT_TELEGRAM_API_BASE = 'https://api.telegram.org'
/** The payload is about 50 bytes; anything much larger is not from our trigger. */
const MAX_BODY_BYTES = 1024
const ATTEMPT_TIMEOUT_MS = 10_000
/** A Retry-After longer than this is not waited for: the function would outlive its caller. */
const MAX_RETRY_AFTER_SECONDS = 10

const defaultDeps: StaffAlertDeps = {
  fetch: (input, init) => fetch(input, init),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => new Date(),
  log: (line) => console.log(line),
  maxAttempts: 3,
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** Compares digests, not the strings, so the time taken says nothing about the secret or its length. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder()
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(given)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ])
  const left = new Uint8Array(a)
  const right = new Uint8Array(b)
  let difference = 0
  for (let i = 0; i < left.length; i += 1) difference |= (left[i] ?? 0) ^ (right[i] ?? 0)
  return difference === 0
}

/** The payload, exactly as the contract states it, or the reason it is not (never echoing it). */
export function parseAlert(body: string): StaffAlert | string {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return 'body is not JSON'
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'body is not an object'
  const keys = Object.keys(value).sort()
  if (keys.length !== 2 || keys[0] !== 'event' || keys[1] !== 'ref') {
    return 'body must have exactly the keys event and ref'
  }
  const { event, ref } = value as { event: unknown; ref: unknown }
  if (!isStaffAlertEvent(event)) return 'unknown event'
  const validRef = typeof ref === 'string' && /^[0-9a-f]{8}$/.test(ref)
  if (event === 'contact.limit' ? !(ref === null || validRef) : !validRef) {
    return 'ref must be 8 lowercase hex characters (null only for contact.limit)'
  }
  return { event, ref: ref as string | null }
}

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/**
 * What staff read on their phones: one line with an event and a reference, never content, and the
 * inquiry's link in the inbox on a second line when INBOX_URL is set.
 */
export function alertText(alert: StaffAlert, now: Date, inboxUrl?: string): string {
  const link = inboxLink(inboxUrl, alert.ref)
  return link ? `${alertLine(alert, now)}\n${link}` : alertLine(alert, now)
}

function alertLine(alert: StaffAlert, now: Date): string {
  switch (alert.event) {
    case 'contact.new':
      return `New secure inquiry ${alert.ref}, answer by ${utc(new Date(now.getTime() + 24 * 3600_000))}`
    case 'contact.overdue':
      return `Secure inquiry ${alert.ref} is still unanswered after 20 hours: answer within 4 hours to keep the 24-hour promise.`
    case 'contact.limit':
      return 'The secure contact form reached its submission limit: new inquiries are refused until it resets. Check for abuse.'
    case 'contact.message':
      return `New message on secure inquiry ${alert.ref}: the visitor wrote in the sealed thread.`
  }
}

type Attempt = { ok: true } | { ok: false; retry: boolean; waitMs: number; reason: string }

async function sendOnce(
  url: string,
  payload: string,
  deps: StaffAlertDeps,
  attempt: number,
): Promise<Attempt> {
  const backoff = 500 * 2 ** (attempt - 1)
  let response: Response
  try {
    response = await deps.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    })
  } catch (error) {
    // The URL holds the bot token: name the failure, never the request.
    const kind = error instanceof Error ? error.name : 'error'
    return { ok: false, retry: true, waitMs: backoff, reason: `network ${kind}` }
  }
  // Telegram's answer echoes the message; it is read to free the connection, never logged.
  const answer = await response.text().catch(() => '')
  if (response.ok) return { ok: true }
  if (response.status === 429) {
    let retryAfter = Number(response.headers.get('retry-after'))
    try {
      const parsed = JSON.parse(answer) as { parameters?: { retry_after?: unknown } }
      if (typeof parsed.parameters?.retry_after === 'number')
        retryAfter = parsed.parameters.retry_after
    } catch {
      // Not JSON: keep the header's value.
    }
    const waitSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : backoff / 1000
    return {
      ok: false,
      retry: waitSeconds <= MAX_RETRY_AFTER_SECONDS,
      waitMs: waitSeconds * 1000,
      reason: 'HTTP 429',
    }
  }
  return {
    ok: false,
    retry: response.status >= 500,
    waitMs: backoff,
    reason: `HTTP ${response.status}`,
  }
}

export async function handleStaffAlert(
  request: Request,
  env: StaffAlertEnv,
  overrides: Partial<StaffAlertDeps> = {},
): Promise<Response> {
  const deps = { ...defaultDeps, ...overrides }
  if (request.method !== 'POST') return json(405, { error: 'POST only' }, { allow: 'POST' })

  // Without a secret nobody could be authenticated; an unconfigured function fails loudly instead.
  if (!env.STAFF_ALERT_SECRET) {
    deps.log('staff-alert: not configured, missing STAFF_ALERT_SECRET')
    return json(500, { error: 'not configured' })
  }
  if (!(await sameSecret(request.headers.get(SECRET_HEADER) ?? '', env.STAFF_ALERT_SECRET))) {
    deps.log('staff-alert: refused a request without the right secret')
    return json(401, { error: 'unauthorized' })
  }
  const missing = (['TELEGRAM_BOT_TOKEN', 'TELEGRAM_CHAT_ID'] as const).filter((name) => !env[name])
  if (missing.length > 0) {
    deps.log(`staff-alert: not configured, missing ${missing.join(', ')}`)
    return json(500, { error: 'not configured' })
  }

  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES) return json(413, { error: 'body too large' })
  const body = await request.text()
  if (new TextEncoder().encode(body).length > MAX_BODY_BYTES)
    return json(413, { error: 'body too large' })
  const alert = parseAlert(body)
  if (typeof alert === 'string') {
    deps.log(`staff-alert: refused a malformed payload (${alert})`)
    return json(400, { error: alert })
  }

  const base = (env.TELEGRAM_API_BASE || DEFAULT_TELEGRAM_API_BASE).replace(/\/+$/, '')
  const url = `${base}/bot${env.TELEGRAM_BOT_TOKEN}/sendMessage`
  const payload = JSON.stringify({
    chat_id: env.TELEGRAM_CHAT_ID,
    text: alertText(alert, deps.now(), env.INBOX_URL),
    // Telegram then forbids forwarding and saving the message in its apps.
    protect_content: true,
  })
  const label = `${alert.event} ${alert.ref ?? '-'}`
  for (let attempt = 1; attempt <= deps.maxAttempts; attempt += 1) {
    const result = await sendOnce(url, payload, deps, attempt)
    if (result.ok) {
      deps.log(`staff-alert: sent ${label} (attempt ${attempt})`)
      return json(200, { ok: true })
    }
    const willRetry = result.retry && attempt < deps.maxAttempts
    deps.log(
      `staff-alert: Telegram failed for ${label}: ${result.reason} (attempt ${attempt} of ${deps.maxAttempts}${willRetry ? ', retrying' : ''})`,
    )
    if (!willRetry) break
    await deps.sleep(result.waitMs)
  }
  return json(502, { error: 'Telegram did not accept the alert' })
}
