import type { Context } from 'hono'
import { compactVerify, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import { json, refuse, Refusal } from './rest/errors'

/**
 * The API gateway's part of a request: the project's API keys (the CLI's demo keys, signed with
 * its well-known secret), the `apikey` every request must carry, and the caller's JWT, checked as
 * PostgREST checks it. What comes out is the role and the claims a request runs with.
 */

/** The Supabase CLI's well-known local secret: it only ever protects a database on this machine. */
export const DEMO_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
/** The CLI signs its demo keys with this expiry; with DEMO_JWT_SECRET they are the published keys. */
const DEMO_EXPIRY = 1983812996
export type ApiKeys = { anonKey: string; serviceRoleKey: string }

export async function signApiKeys(jwtSecret: string): Promise<ApiKeys> {
  const key = new TextEncoder().encode(jwtSecret)
  const sign = (role: string) =>
    new SignJWT({ iss: 'supabase-demo', role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(DEMO_EXPIRY)
      .sign(key)
  return { anonKey: await sign('anon'), serviceRoleKey: await sign('service_role') }
}

/** PostgREST v14's clock skew for `exp`, `nbf` and `iat` (allowedSkewSeconds in Auth/Jwt.hs). */
const CLOCK_SKEW_SECONDS = 30

/**
 * The time claims as PostgREST v14 checks them once the signature holds, in its order and words
 * (src/PostgREST/Auth/Jwt.hs, Error.hs): `exp`, `nbf` and `iat` (a token issued in the future
 * is refused), each with 30 s of skew. Returns the message of the first that fails.
 */
function claimsRefusal(claims: JWTPayload, now: number): string | null {
  const checks: [string, (seconds: number) => boolean, string][] = [
    ['exp', (exp) => now <= exp + CLOCK_SKEW_SECONDS, 'JWT expired'],
    ['nbf', (nbf) => now >= nbf - CLOCK_SKEW_SECONDS, 'JWT not yet valid'],
    ['iat', (iat) => now >= iat - CLOCK_SKEW_SECONDS, 'JWT issued at future'],
  ]
  for (const [claim, valid, message] of checks) {
    const value = claims[claim]
    if (value === undefined) continue
    if (typeof value !== 'number') return `The JWT '${claim}' claim must be a number`
    if (!valid(Math.floor(value))) return message
  }
  return null
}

/** PostgREST's messages for a token it cannot use (src/PostgREST/Auth/Jwt.hs, Error.hs). */
export async function verifyJwt(token: string, key: Uint8Array): Promise<JWTPayload> {
  const fail = (code: string, message: string, details: string | null = null): never => {
    const description = `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`
    return refuse(401, code, message, details, null, { 'WWW-Authenticate': description })
  }
  if (token === '') fail('PGRST301', 'Empty JWT is sent in Authorization header')
  const parts = token.split('.')
  if (parts.length !== 3) fail('PGRST301', `Expected 3 parts in JWT; got ${parts.length}`)
  let payload: Uint8Array
  try {
    // The signature only: the claims are PostgREST's to judge, in its words (below).
    payload = (await compactVerify(token, key, { algorithms: ['HS256'] })).payload
  } catch {
    if (
      Buffer.from(parts[0] ?? '', 'base64url')
        .toString()
        .includes('"alg":"none"')
    ) {
      const details = "JWT is unsecured but expected 'alg' was not 'none'"
      fail('PGRST301', 'Wrong or unsupported encoding algorithm', details)
    }
    const details = 'None of the keys was able to decode the JWT'
    return fail('PGRST301', 'No suitable key or wrong key type', details)
  }
  let claims: unknown
  try {
    claims = JSON.parse(new TextDecoder().decode(payload))
  } catch {
    claims = null
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims))
    return fail('PGRST303', 'Parsing claims failed')
  const refusal = claimsRefusal(claims as JWTPayload, Math.floor(Date.now() / 1000))
  if (refusal) fail('PGRST303', refusal)
  return claims as JWTPayload
}

/** The gateway: a project API key is required, and stands in for a missing Authorization header. */
export async function gatewayAuthorization(
  c: Context,
  key: Uint8Array,
  valid: Map<string, boolean>,
) {
  const apikey = c.req.header('apikey') ?? c.req.query('apikey')
  const gatewayError = (message: string, hint: string) => new Refusal(json(401, { message, hint }))
  if (!apikey) {
    throw gatewayError(
      'No API key found in request',
      'No `apikey` request header or url param was found.',
    )
  }
  if (!valid.has(apikey)) {
    const payload = await jwtVerify(apikey, key, {
      algorithms: ['HS256'],
      currentDate: new Date(0),
    }).catch(() => null)
    valid.set(apikey, payload?.payload.role === 'anon' || payload?.payload.role === 'service_role')
  }
  if (!valid.get(apikey)) {
    throw gatewayError(
      'Invalid API key',
      'Double check your Supabase `anon` or `service_role` API key.',
    )
  }
  return c.req.header('authorization') ?? `Bearer ${apikey}`
}

/** Who a request runs as: the JWT's role (anon without one) and its claims, as PostgREST sets them. */
export type Identity = { role: string; claims: JWTPayload }

/** A gateway for one JWT secret: `identify` checks the API key, then the bearer token. */
export function createGateway(jwtSecret: string) {
  const key = new TextEncoder().encode(jwtSecret)
  // Whether an API key is one of the project's, decided once per key.
  const validKeys = new Map<string, boolean>()
  return {
    /** The API key checked; the Authorization header the request goes on with. */
    authorization: (c: Context) => gatewayAuthorization(c, key, validKeys),
    async identify(c: Context): Promise<Identity> {
      const authorization = await gatewayAuthorization(c, key, validKeys)
      const bearer = /^bearer(?:\s+(.*))?$/i.exec(authorization.trim())
      const claims = bearer ? await verifyJwt((bearer[1] ?? '').trim(), key) : {}
      const role = typeof claims.role === 'string' && claims.role !== '' ? claims.role : 'anon'
      return { role, claims: { ...claims, role } }
    },
  }
}
export type Gateway = ReturnType<typeof createGateway>
