import type { Context } from 'hono'
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import { json, refuse, Refusal } from './postgrest-errors'

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

/** PostgREST's messages for a token it cannot use (src/PostgREST/Auth/Jwt.hs, Error.hs). */
export async function verifyJwt(token: string, key: Uint8Array): Promise<JWTPayload> {
  const fail = (code: string, message: string, details: string | null = null): never => {
    const description = `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`
    return refuse(401, code, message, details, null, { 'WWW-Authenticate': description })
  }
  if (token === '') fail('PGRST301', 'Empty JWT is sent in Authorization header')
  const parts = token.split('.')
  if (parts.length !== 3) fail('PGRST301', `Expected 3 parts in JWT; got ${parts.length}`)
  try {
    return (await jwtVerify(token, key, { algorithms: ['HS256'], clockTolerance: 30 })).payload
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) fail('PGRST303', 'JWT expired')
    if (error instanceof joseErrors.JWTClaimValidationFailed) fail('PGRST303', error.message)
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
