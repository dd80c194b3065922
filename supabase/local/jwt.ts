import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * HS256 JSON Web Tokens, as PostgREST v14 checks them (PostgREST/postgrest src/PostgREST/Auth/Jwt.hs
 * and Error.hs): the same order of checks and the same messages, so the stand-in fails a request
 * the way the hosted API does. Only HS256 is supported: the local secret is symmetric.
 */

export type JwtClaims = Record<string, unknown>

export type JwtFailure = {
  /** PGRST301: the token cannot be decoded or verified; PGRST303: a time claim fails. */
  code: 'PGRST301' | 'PGRST303'
  message: string
  details: string | null
}

export type JwtVerification = { ok: true; claims: JwtClaims } | ({ ok: false } & JwtFailure)

/** PostgREST allows this much clock skew on exp, nbf and iat. */
const CLOCK_SKEW_SECONDS = 30
const BASE64URL = /^[A-Za-z0-9_-]*$/

function fail(
  code: JwtFailure['code'],
  message: string,
  details: string | null = null,
): JwtVerification {
  return { ok: false, code, message, details }
}

function decodeJsonObject(segment: string): JwtClaims | null {
  if (!BASE64URL.test(segment)) return null
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as JwtClaims)
      : null
  } catch {
    return null
  }
}

function hs256(input: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(input).digest()
}

/** Decodes a token and checks its signature, but not its time claims. */
export function verifyJwtSignature(token: string, secret: string): JwtVerification {
  if (token === '') return fail('PGRST301', 'Empty JWT is sent in Authorization header')
  const parts = token.split('.')
  if (parts.length !== 3) return fail('PGRST301', `Expected 3 parts in JWT; got ${parts.length}`)
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts

  const header = decodeJsonObject(headerPart)
  if (!header) return fail('PGRST301', 'JWT cryptographic operation failed')
  if (header.alg === 'none') {
    return fail(
      'PGRST301',
      'Wrong or unsupported encoding algorithm',
      "JWT is unsecured but expected 'alg' was not 'none'",
    )
  }
  const noKey = () =>
    fail(
      'PGRST301',
      'No suitable key or wrong key type',
      'None of the keys was able to decode the JWT',
    )
  if (header.alg !== 'HS256' || !BASE64URL.test(signaturePart)) return noKey()

  const expected = hs256(`${headerPart}.${payloadPart}`, secret)
  const given = Buffer.from(signaturePart, 'base64url')
  // Lengths are public (always 32 for HS256); the comparison of the bytes is constant-time.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return noKey()

  const claims = decodeJsonObject(payloadPart)
  if (!claims) return fail('PGRST301', 'JWT cryptographic operation failed')
  return { ok: true, claims }
}

/** Everything PostgREST checks: decoding, signature, then exp, nbf and iat (with 30 s of skew). */
export function verifyJwt(
  token: string,
  secret: string,
  nowSeconds = Date.now() / 1000,
): JwtVerification {
  const verified = verifyJwtSignature(token, secret)
  if (!verified.ok) return verified
  const { claims } = verified

  const timeClaim = (name: 'exp' | 'nbf' | 'iat'): number | null | 'invalid' => {
    const value = claims[name]
    if (value === undefined) return null
    return typeof value === 'number' && Number.isFinite(value) ? value : 'invalid'
  }
  const exp = timeClaim('exp')
  if (exp === 'invalid') return fail('PGRST303', "The JWT 'exp' claim must be a number")
  if (exp !== null && nowSeconds - CLOCK_SKEW_SECONDS > exp) return fail('PGRST303', 'JWT expired')
  const nbf = timeClaim('nbf')
  if (nbf === 'invalid') return fail('PGRST303', "The JWT 'nbf' claim must be a number")
  if (nbf !== null && nowSeconds + CLOCK_SKEW_SECONDS < nbf)
    return fail('PGRST303', 'JWT not yet valid')
  const iat = timeClaim('iat')
  if (iat === 'invalid') return fail('PGRST303', "The JWT 'iat' claim must be a number")
  if (iat !== null && nowSeconds + CLOCK_SKEW_SECONDS < iat)
    return fail('PGRST303', 'JWT issued at future')

  return { ok: true, claims }
}

/** Signs claims with HS256: the local keys are derived this way, and tests make their tokens. */
export function signJwt(claims: JwtClaims, secret: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url')
  const signature = hs256(`${header}.${payload}`, secret).toString('base64url')
  return `${header}.${payload}.${signature}`
}
