import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'

/**
 * TOTP as GoTrue does it (RFC 6238 through a well-kept library, otpauth): SHA-1, 6 digits, 30 s,
 * a 160-bit secret, one step of clock skew either way, and the enrolment's otpauth:// URI with a
 * QR code as SVG markup (auth-js turns it into a data: URL).
 */

const PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

export async function enrolment(secret: string, issuer: string, account: string) {
  const uri = new TOTP({ ...PARAMETERS, issuer, label: account, secret }).toString()
  return { secret, uri, qr_code: await QRCode.toString(uri, { type: 'svg' }) }
}

/**
 * The time step (a count of 30 s periods since the epoch) whose code `code` is, within one step of
 * `now`, or null for a wrong code. The caller accepts each step once (RFC 6238 §5.2).
 */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = TOTP.validate({
    ...PARAMETERS,
    secret: Secret.fromBase32(secret),
    token: code,
    timestamp: now,
    window: 1,
  })
  return delta === null ? null : Math.floor(now / 1000 / PARAMETERS.period) + delta
}

/** The code an authenticator app shows now: for tests and the local walkthrough only. */
export function totpCode(secret: string, now = Date.now()): string {
  return TOTP.generate({ ...PARAMETERS, secret: Secret.fromBase32(secret), timestamp: now })
}
