/**
 * Forwards the database's content-free staff alerts (`pg_notify('staff_alert', '{"event","ref"}')`)
 * to STAFF_ALERT_WEBHOOK_URL, as pg_net does on Supabase, or prints one line when none is set.
 * Only the event name and the reference are ever sent or logged, whatever else a payload holds.
 */

import type { Database } from './database'
import {
  inboxLink,
  SECRET_HEADER,
  type StaffAlertEvent,
} from '../functions/_shared/staff-alert-contract.ts'

/** An alert as received; an event this version does not know is still forwarded, by name. */
export type StaffAlert = { event: string; ref: string | null }

export type AlertForwarderOptions = {
  webhookUrl?: string | undefined
  secret?: string | undefined
  log: (line: string) => void
  /** The staff inbox's address: the printed line links the inquiry, as the Telegram alert does. */
  inboxUrl?: string | undefined
  /** Attempts for one alert (5xx and network errors are retried, 4xx are not). */
  attempts?: number
  /** The first retry waits this long, each next one twice as long. */
  retryDelayMs?: number
}

export function parseStaffAlert(payload: string): StaffAlert | null {
  try {
    const { event, ref } = JSON.parse(payload) as Record<string, unknown>
    if (typeof event !== 'string' || !/^[a-z]+(\.[a-z_]+)*$/.test(event)) return null
    return { event, ref: typeof ref === 'string' && /^[0-9a-f-]{1,36}$/.test(ref) ? ref : null }
  } catch {
    return null
  }
}

const SHOWN: Record<StaffAlertEvent, string> & Record<string, string | undefined> = {
  'contact.new': 'new inquiry',
  'contact.overdue': 'inquiry waiting for over 20 hours',
  'contact.limit': 'submission limit reached',
  'contact.message': 'new message',
}

export function createAlertForwarder(options: AlertForwarderOptions) {
  const { webhookUrl, secret, log, inboxUrl, attempts = 4, retryDelayMs = 500 } = options
  return async function forward(payload: string): Promise<void> {
    const alert = parseStaffAlert(payload)
    if (!alert) return log('staff alert ignored: not an {event, ref} payload')
    const label = [alert.event, alert.ref].filter(Boolean).join(' ')
    if (!webhookUrl) {
      const link = inboxLink(inboxUrl, alert.ref?.slice(0, 8) ?? null)
      return log([SHOWN[alert.event] ?? alert.event, alert.ref, link].filter(Boolean).join(' '))
    }

    let outcome = ''
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (attempt > 1)
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** (attempt - 2)))
      try {
        const response = await fetch(webhookUrl, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(secret ? { [SECRET_HEADER]: secret } : {}),
          },
          body: JSON.stringify(alert),
          signal: AbortSignal.timeout(10_000),
        })
        await response.body?.cancel()
        if (response.ok) return log(`staff alert ${label} forwarded`)
        outcome = `HTTP ${response.status}`
        if (response.status < 500) break
      } catch (error) {
        outcome = (error as Error).name
      }
    }
    log(`staff alert ${label} not forwarded (${outcome})`)
  }
}

/** Forwards every `staff_alert` notification of `db` for the life of the database. */
export async function listenForStaffAlerts(db: Database, options: AlertForwarderOptions) {
  const forward = createAlertForwarder(options)
  await db.listen('staff_alert', (payload) => void forward(payload))
}
