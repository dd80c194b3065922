/** What src/inbox/vite.config.ts resolved at build time: the Supabase project this inbox reads. */
export type InboxEnv = { agencyName: string; supabaseUrl: string; supabaseAnonKey: string }

declare const __INBOX_ENV__: InboxEnv

export const inboxEnv: InboxEnv = __INBOX_ENV__
