/**
 * What src/inbox/vite.config.ts resolved at build time: the Supabase project this inbox reads, and
 * the agency's recipients (the set the site seals inquiries to) that every reply is sealed to as
 * well as to the visitor: built in, never read from the database, which could swap them.
 */
export type InboxEnv = {
  agencyName: string
  supabaseUrl: string
  supabaseAnonKey: string
  agencyRecipients: readonly string[]
  /** How long "Keep me signed in on this device" lasts, in days (VITE_INBOX_TRUSTED_DAYS). */
  trustedSessionDays: number
}

declare const __INBOX_ENV__: InboxEnv

export const inboxEnv: InboxEnv = __INBOX_ENV__
