import { handleStaffAlert } from './handler.ts'

/**
 * Supabase Edge Function `staff-alert` (Deno). Deploy with
 * `supabase functions deploy staff-alert --no-verify-jwt`: the database calls it with the shared
 * secret header, not a user's JWT. Secrets: `supabase secrets set STAFF_ALERT_SECRET=… TELEGRAM_BOT_TOKEN=… TELEGRAM_CHAT_ID=… INBOX_URL=https://inbox.example.com` (INBOX_URL is optional: with it, each alert links
 * to the inquiry in the staff inbox).
 */

// Declared here, not from Deno's types, so this file also type-checks with the Node tsconfig.
declare const Deno: {
  env: { get(name: string): string | undefined }
  serve(handler: (request: Request) => Promise<Response>): unknown
}

Deno.serve((request) =>
  handleStaffAlert(request, {
    STAFF_ALERT_SECRET: Deno.env.get('STAFF_ALERT_SECRET'),
    TELEGRAM_BOT_TOKEN: Deno.env.get('TELEGRAM_BOT_TOKEN'),
    TELEGRAM_CHAT_ID: Deno.env.get('TELEGRAM_CHAT_ID'),
    TELEGRAM_API_BASE: Deno.env.get('TELEGRAM_API_BASE'),
    INBOX_URL: Deno.env.get('INBOX_URL'),
  }),
)
