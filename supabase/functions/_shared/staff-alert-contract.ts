/**
 * What the database sends staff alerts as, for both of its receivers: the staff-alert Edge Function
 * (Supabase, through pg_net) and the local backend's forwarder (pg_notify). The payload is
 * `{"event", "ref"}` and nothing else (private.staff_alert_payload builds it); the shared secret
 * travels in SECRET_HEADER. Web APIs only, and imported with its `.ts` extension, so Deno runs it.
 */

export const STAFF_ALERT_EVENTS = [
  'contact.new',
  'contact.overdue',
  'contact.limit',
  // A visitor wrote in an inquiry's sealed thread (public.add_to_thread); ref is the inquiry's.
  'contact.message',
] as const
export type StaffAlertEvent = (typeof STAFF_ALERT_EVENTS)[number]
export type StaffAlert = { event: StaffAlertEvent; ref: string | null }

export const SECRET_HEADER = 'x-staff-alert-secret'

export function isStaffAlertEvent(value: unknown): value is StaffAlertEvent {
  return STAFF_ALERT_EVENTS.includes(value as StaffAlertEvent)
}

/**
 * The inquiry's address in the staff inbox, `/inquiries/<reference>`: the reference and nothing
 * else (the inbox opens it once signed in and unlocked). Null without an inbox address.
 */
export function inboxLink(inboxUrl: string | undefined, ref: string | null): string | null {
  if (!inboxUrl || !ref) return null
  return new URL(`/inquiries/${encodeURIComponent(ref)}`, inboxUrl).toString()
}
