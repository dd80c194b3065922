/**
 * The attachment-purge Edge Function's request handler (Web APIs only, so it runs in Supabase's
 * Deno runtime, index.ts, and in Node's tests alike). The database calls it through pg_net
 * whenever it queues objects for removal (an inquiry purged, day-old orphans found by the hourly
 * purge), with the shared secret in `x-attachment-purge-secret`; it then removes the queued
 * objects through the Storage API with the service role (../_shared/attachment-removal.ts).
 * Its answer carries only a count.
 */

import {
  ATTACHMENT_PURGE_SECRET_HEADER,
  removeQueuedAttachments,
} from '../_shared/attachment-removal.ts'

export type AttachmentPurgeEnv = {
  /** Shared with the database (Vault secret attachment_purge_secret). */
  ATTACHMENT_PURGE_SECRET?: string | undefined
  /** Set by Supabase in every Edge Function. */
  SUPABASE_URL?: string | undefined
  SUPABASE_SERVICE_ROLE_KEY?: string | undefined
}

/** Compares without an early exit, so the time taken says nothing about the secret. */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given)
  const b = new TextEncoder().encode(expected)
  let difference = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) difference |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return difference === 0
}

export async function handleAttachmentPurge(
  request: Request,
  env: AttachmentPurgeEnv,
  deps: { fetch?: typeof fetch; log?: (line: string) => void } = {},
): Promise<Response> {
  const log = deps.log ?? ((line: string) => console.log(line))
  if (request.method !== 'POST') return new Response('Method not allowed', { status: 405 })
  const secret = env.ATTACHMENT_PURGE_SECRET
  if (!secret || !env.SUPABASE_URL || !env.SUPABASE_SERVICE_ROLE_KEY) {
    log(
      'attachment-purge: ATTACHMENT_PURGE_SECRET, SUPABASE_URL or SUPABASE_SERVICE_ROLE_KEY is not set',
    )
    return new Response('Not configured', { status: 500 })
  }
  if (!sameSecret(request.headers.get(ATTACHMENT_PURGE_SECRET_HEADER) ?? '', secret))
    return new Response('Forbidden', { status: 403 })
  try {
    const removed = await removeQueuedAttachments({
      url: env.SUPABASE_URL.replace(/\/+$/, ''),
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
      fetch: deps.fetch,
      log,
    })
    return Response.json({ removed })
  } catch (error) {
    log(`attachment-purge: ${(error as Error).message}`)
    return new Response('Removal failed', { status: 502 })
  }
}
