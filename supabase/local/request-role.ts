import type { IncomingHttpHeaders } from 'node:http'
import { verifyJwt, type JwtClaims } from './jwt'
import { postgrestError, type ApiResponse } from './api-response'
import type { Database, Queryable } from './database'

/** PostgREST's db-anon-role in Supabase: requests without a JWT (or without a role claim) run as it. */
export const ANON_ROLE = 'anon'

/** PostgREST logs in as this role and may only switch to roles granted to it. */
const AUTHENTICATOR_ROLE = 'authenticator'

/** The role and claims a request runs with, as PostgREST derives them from its JWT. */
export type RequestIdentity = { role: string; claims: JwtClaims }

/**
 * Reads `Authorization: Bearer <jwt>` (scheme case-insensitive). No header, or another scheme,
 * means no JWT: the anonymous role. A bad or expired JWT is a 401 with PostgREST's message and
 * `WWW-Authenticate: Bearer error="invalid_token"…`.
 */
export function identifyRequest(
  authorization: string | undefined,
  jwtSecret: string,
): RequestIdentity | ApiResponse {
  const bearer = /^bearer(?:\s+(.*))?$/i.exec(authorization?.trim() ?? '')
  if (!bearer) return { role: ANON_ROLE, claims: { role: ANON_ROLE } }

  const verified = verifyJwt((bearer[1] ?? '').trim(), jwtSecret)
  if (!verified.ok) {
    return postgrestError(
      401,
      { code: verified.code, message: verified.message, details: verified.details },
      // Haskell's `show` of the message, which JSON string syntax matches for these messages.
      {
        'WWW-Authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(verified.message)}`,
      },
    )
  }
  const role =
    typeof verified.claims.role === 'string' && verified.claims.role !== ''
      ? verified.claims.role
      : ANON_ROLE
  return { role, claims: { ...verified.claims, role } }
}

/** An error raised here with a SQLSTATE, read back by asPgError like the drivers' errors. */
class RoleSwitchError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'RoleSwitchError'
  }
}

export type RequestContext = {
  identity: RequestIdentity
  method: string
  /** The path as PostgREST sees it, without the gateway's /rest/v1 prefix. */
  path: string
  headers: IncomingHttpHeaders
  searchPath: readonly string[]
}

/**
 * Runs `fn` in one transaction as the request's role, with the settings PostgREST sets first
 * (src/PostgREST/Query/PreQuery.hs), so grants, RLS policies and helpers such as auth.role() see
 * exactly what they see in production.
 *
 * The stand-in connects as a superuser (PGlite has no other), which may switch to any role; so it
 * first applies the rule PostgREST's `authenticator` login is bound by: only roles granted to
 * authenticator are allowed.
 */
export async function runAsRequestRole<T>(
  db: Database,
  context: RequestContext,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  const { role, claims } = context.identity
  return db.transaction(async (tx) => {
    const [check] = await tx.query<{ role_exists: boolean; may_switch: boolean }>(
      `select r.oid is not null as role_exists,
              coalesce(pg_catalog.pg_has_role($2::name, r.oid, 'MEMBER'), false) as may_switch
         from (select 1) as one
         left join pg_catalog.pg_roles as r on r.rolname = $1`,
      [role, AUTHENTICATOR_ROLE],
    )
    if (!check?.role_exists) throw new RoleSwitchError('22023', `role "${role}" does not exist`)
    if (!check.may_switch)
      throw new RoleSwitchError('42501', `permission denied to set role "${role}"`)

    const { cookie, ...headers } = context.headers
    const cookies = Object.fromEntries(
      (cookie ?? '')
        .split(';')
        .map((pair) => pair.trim().split('='))
        .filter((pair): pair is [string, ...string[]] => pair[0] !== undefined && pair[0] !== '')
        .map(([name, ...value]) => [name, value.join('=')]),
    )
    // set_config(…, true) is SET LOCAL: everything ends with the transaction. The role is set
    // last, after the settings any role may set.
    await tx.query(
      `select pg_catalog.set_config('search_path', $1, true),
              pg_catalog.set_config('request.jwt.claims', $2, true),
              pg_catalog.set_config('request.method', $3, true),
              pg_catalog.set_config('request.path', $4, true),
              pg_catalog.set_config('request.headers', $5, true),
              pg_catalog.set_config('request.cookies', $6, true),
              pg_catalog.set_config('role', $7, true)`,
      [
        context.searchPath.map((schema) => `"${schema.replace(/"/g, '""')}"`).join(', '),
        JSON.stringify(claims),
        context.method,
        context.path,
        JSON.stringify(headers),
        JSON.stringify(cookies),
        role,
      ],
    )
    return fn(tx)
  })
}
