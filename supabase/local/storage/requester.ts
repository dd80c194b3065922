import type { Context } from 'hono'
import type { Database, Queryable } from '../database'
import type { Gateway, Identity } from '../gateway'
import { Refusal } from '../rest/errors'
import { STORAGE_ERRORS } from './errors'

/**
 * Who a Storage request runs as, and how its statements are scoped, as Supabase Storage scopes
 * them (supabase/storage at 4fa61fb, src/storage/database/pg.ts): the requester's role with its
 * JWT claims and headers, or Storage's own superuser with the same headers (so the database's
 * triggers still see the network).
 */

/** The roles a request may run as (those granted to authenticator on Supabase). */
const API_ROLES = new Set(['anon', 'authenticated', 'service_role'])

export type Requester = {
  identity: Identity
  /** What its statements see in request.headers. */
  headers: Record<string, string>
  method: string
  path: string
  /** Storage's name for the route (storage.operation), as in its src/http/routes/operations.ts. */
  operation: string
}

/**
 * The gateway's key check (Kong's answer), then the JWT (Storage's InvalidJWT). Every header but
 * cookies goes to request.headers, lowercased, as Storage passes Fastify's request.headers:
 * policies read cf-connecting-ip and the visitor's x-mailbox-token there.
 */
export async function requesterOf(
  c: Context,
  gateway: Gateway,
  operation: string,
): Promise<Requester> {
  await gateway.authorization(c)
  let identity: Identity
  try {
    identity = await gateway.identify(c)
  } catch (error) {
    if (!(error instanceof Refusal)) throw error
    const body = (await error.response.json().catch(() => ({}))) as { message?: string }
    throw STORAGE_ERRORS.invalidJwt(body.message)
  }
  const headers = Object.fromEntries(
    [...c.req.raw.headers].filter(([header]) => header !== 'cookie'),
  )
  return { identity, headers, method: c.req.method, path: new URL(c.req.url).pathname, operation }
}

/** The owner columns Storage writes: the JWT's subject (as uuid when it is one). */
export function ownerOf(who: Requester): { owner: string | null; ownerId: string | null } {
  const sub = who.identity.claims.sub
  const ownerId = typeof sub === 'string' && sub !== '' ? sub : null
  return { ownerId, owner: ownerId && /^[0-9a-f-]{36}$/i.test(ownerId) ? ownerId : null }
}

/** A transaction as Storage scopes it: the role (or its superuser), claims and headers. */
export function scoped<T>(
  db: Database,
  who: Requester,
  asRole: boolean,
  fn: (tx: Queryable) => Promise<T>,
  options: { allowDelete?: boolean } = {},
): Promise<T> {
  const { identity } = who
  if (asRole && !API_ROLES.has(identity.role))
    return Promise.reject(STORAGE_ERRORS.accessDenied(`role "${identity.role}" may not be used`))
  return db.transaction(async (tx) => {
    await tx.query(
      `select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.role', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.headers', $4, true),
              set_config('request.method', $5, true), set_config('request.path', $6, true),
              set_config('storage.allow_delete_query', $7, true),
              set_config('storage.operation', $8, true),
              set_config('search_path', 'storage, public, extensions', true)`,
      [
        JSON.stringify(identity.claims),
        identity.role,
        typeof identity.claims.sub === 'string' ? identity.claims.sub : '',
        JSON.stringify(who.headers),
        who.method,
        who.path,
        options.allowDelete ? 'true' : 'false',
        who.operation,
      ],
    )
    if (asRole) await tx.query(`select set_config('role', $1, true)`, [identity.role])
    return fn(tx)
  })
}
