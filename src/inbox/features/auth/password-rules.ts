/** supabase/config.toml `minimum_password_length`. */
export const MIN_PASSWORD_LENGTH = 12
/** bcrypt reads no further; Auth refuses longer passwords (in bytes, not characters). */
export const MAX_PASSWORD_BYTES = 72

export type PasswordProblem = 'mismatch' | 'too-short' | 'too-long'

export function passwordProblem(password: string, repeat: string): PasswordProblem | null {
  if (password !== repeat) return 'mismatch'
  if (password.length < MIN_PASSWORD_LENGTH) return 'too-short'
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) return 'too-long'
  return null
}

/** The setup key in groups of four, as authenticator apps print it. */
export function keyGroups(secret: string): string[] {
  return secret.match(/.{1,4}/g) ?? []
}
