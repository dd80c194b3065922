import { handleAttachmentPurge } from './handler.ts'

/**
 * Supabase Edge Function `attachment-purge` (Deno). Deploy with
 * `supabase functions deploy attachment-purge --no-verify-jwt`: the database calls it with the
 * shared secret header, not a user's JWT. Secret: `supabase secrets set ATTACHMENT_PURGE_SECRET=…`
 * (the same value as the Vault secret `attachment_purge_secret`; supabase/README.md).
 */

// Declared here, not from Deno's types, so this file also type-checks with the Node tsconfig.
declare const Deno: {
  env: { get(name: string): string | undefined }
  serve(handler: (request: Request) => Promise<Response>): unknown
}

Deno.serve((request) =>
  handleAttachmentPurge(request, {
    ATTACHMENT_PURGE_SECRET: Deno.env.get('ATTACHMENT_PURGE_SECRET'),
    SUPABASE_URL: Deno.env.get('SUPABASE_URL'),
    SUPABASE_SERVICE_ROLE_KEY: Deno.env.get('SUPABASE_SERVICE_ROLE_KEY'),
  }),
)
