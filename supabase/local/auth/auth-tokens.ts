import { jwtVerify, SignJWT, type JWTPayload } from 'jose'
import { REFUSALS } from './auth-errors'
import type { SessionRecord, UserRecord } from './records'

/**
 * Access tokens as GoTrue signs them (HS256 with the project's JWT secret) and carries them:
 * `iss, sub, aud, exp, iat, email, phone, app_metadata, user_metadata, role, aal, amr,
 * session_id, is_anonymous`. PostgREST reads the same token, so the policies see these claims.
 */

export const ACCESS_TOKEN_SECONDS = 3600

export type AccessClaims = JWTPayload & {
  sub: string
  session_id: string
  role: string
  aal?: string
  is_anonymous?: boolean
}

export function createTokens(jwtSecret: string) {
  const key = new TextEncoder().encode(jwtSecret)
  return {
    async sign(issuer: string, user: UserRecord, session: SessionRecord): Promise<string> {
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({
        email: user.email ?? '',
        phone: '',
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: {},
        role: 'authenticated',
        aal: session.aal,
        amr: session.amr,
        session_id: session.id,
        is_anonymous: user.is_anonymous,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(issuer)
        .setSubject(user.id)
        .setAudience('authenticated')
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
        .sign(key)
    },

    /** The caller's claims, from `Authorization: Bearer <jwt>`, refused as GoTrue refuses them. */
    async verify(authorization: string | undefined): Promise<AccessClaims> {
      const token = /^bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1]
      if (!token) return REFUSALS.noAuthorization()
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] })
        return payload as AccessClaims
      } catch (error) {
        return REFUSALS.badJwt(error instanceof Error ? error.message : 'unable to verify')
      }
    },
  }
}

export type Tokens = ReturnType<typeof createTokens>
