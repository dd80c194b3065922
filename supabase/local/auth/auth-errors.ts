import type { Context } from 'hono'

/**
 * GoTrue's error answers. supabase-js sends `X-Supabase-Api-Version: 2024-01-01`; GoTrue then
 * answers `{code, message}` with the error code in `code`, and echoes the version header, which is
 * how auth-js knows to read `code` as the error code. Older clients get the legacy envelope.
 */

export const API_VERSION_HEADER = 'x-supabase-api-version'
const API_VERSION = '2024-01-01'

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

export function authFail(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): never {
  throw new AuthError(status, code, message, extra)
}

export function authErrorResponse(c: Context, error: AuthError): Response {
  const versioned = (c.req.header(API_VERSION_HEADER) ?? '') >= API_VERSION
  const body = versioned
    ? { code: error.code, message: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra }
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: {
      'Content-Type': 'application/json',
      ...(versioned ? { [API_VERSION_HEADER]: API_VERSION } : {}),
    },
  })
}

/** GoTrue's answers to what this product keeps closed or does not offer. */
export const REFUSALS = {
  invalidCredentials: () => authFail(400, 'invalid_credentials', 'Invalid login credentials'),
  signupDisabled: () => authFail(422, 'signup_disabled', 'Signups not allowed for this instance'),
  anonymousDisabled: () =>
    authFail(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled'),
  rateLimited: () => authFail(429, 'over_request_rate_limit', 'Request rate limit reached'),
  noAuthorization: () =>
    authFail(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (reason: string) => authFail(403, 'bad_jwt', `invalid JWT: ${reason}`),
  sessionNotFound: () =>
    authFail(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () => authFail(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  notAdmin: () => authFail(403, 'not_admin', 'User not allowed'),
} as const
