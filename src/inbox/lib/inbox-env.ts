/**
 * What src/inbox/vite.config.ts resolved at build time. The agency's recipients are built in,
 * never read from the database, which could swap them.
 */
export type InboxEnv = {
  agencyName: string
  supabaseUrl: string
  supabaseAnonKey: string
  agencyRecipients: readonly string[]
  /** The agency's public signing keys: a reply none of them signed is not the agency's. */
  agencySigningKeys: readonly string[]
  trustedSessionDays: number
}

declare const __INBOX_ENV__: InboxEnv

export const inboxEnv: InboxEnv = __INBOX_ENV__
