import { signJwt, verifyJwtSignature } from './jwt'

/**
 * The well-known local-development credentials of the Supabase CLI (public on purpose: they only
 * ever protect a database on the developer's own machine), and the gateway's API key check.
 */
export const DEMO_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'

/** New-format local keys; the CLI's gateway maps them to the anon / service_role JWTs. */
export const LOCAL_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH'
export const LOCAL_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz'

/** The CLI signs its demo keys with these claims; with DEMO_JWT_SECRET they are the published keys. */
const DEMO_EXPIRY = 1983812996

export type ApiKeys = { anonKey: string; serviceRoleKey: string }

// Signed once per secret, not on every request the gateway checks.
const keysBySecret = new Map<string, ApiKeys>()

export function apiKeysFor(jwtSecret: string): ApiKeys {
  let keys = keysBySecret.get(jwtSecret)
  if (!keys) {
    keys = {
      anonKey: signJwt({ iss: 'supabase-demo', role: 'anon', exp: DEMO_EXPIRY }, jwtSecret),
      serviceRoleKey: signJwt(
        { iss: 'supabase-demo', role: 'service_role', exp: DEMO_EXPIRY },
        jwtSecret,
      ),
    }
    keysBySecret.set(jwtSecret, keys)
  }
  return keys
}

export type GatewayDecision =
  { ok: true; authorization: string | undefined } | { ok: false; message: string; hint: string }

/**
 * What Supabase's API gateway does before PostgREST sees a request: it requires a project API key
 * (hosted-style messages), and forwards the Authorization header, falling back to the key itself
 * when the client sent none, and swapping `sb_` keys for the JWT of their role.
 */
export function checkApiKey(
  apikey: string | undefined,
  authorization: string | undefined,
  jwtSecret: string,
): GatewayDecision {
  if (apikey === undefined || apikey === '') {
    return {
      ok: false,
      message: 'No API key found in request',
      hint: 'No `apikey` request header or url param was found.',
    }
  }
  const keys = apiKeysFor(jwtSecret)
  const roleJwt =
    apikey === LOCAL_PUBLISHABLE_KEY
      ? keys.anonKey
      : apikey === LOCAL_SECRET_KEY
        ? keys.serviceRoleKey
        : isProjectJwtKey(apikey, jwtSecret)
          ? apikey
          : null
  if (roleJwt === null) {
    return {
      ok: false,
      message: 'Invalid API key',
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    }
  }
  const clientSentToken = authorization !== undefined && !/^bearer sb_/i.test(authorization)
  return { ok: true, authorization: clientSentToken ? authorization : `Bearer ${roleJwt}` }
}

/** A legacy JWT API key: signed with the project's secret for the anon or service_role role. */
function isProjectJwtKey(apikey: string, jwtSecret: string): boolean {
  // Expiry is PostgREST's concern once the key is used as the bearer token, not the gateway's.
  const verified = verifyJwtSignature(apikey, jwtSecret)
  return verified.ok && (verified.claims.role === 'anon' || verified.claims.role === 'service_role')
}
