/**
 * `VITE_INBOX_TRUSTED_DAYS`: how long a trusted device stays signed in. supabase/config.toml's
 * `[auth.sessions] timebox` says the same to Auth where the plan has it; the inbox enforces it.
 */
export const DEFAULT_TRUSTED_DAYS = 30
export const MAX_TRUSTED_DAYS = 365

export function parseTrustedDays(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_TRUSTED_DAYS
  const days = Number(value.trim())
  if (!Number.isInteger(days) || days < 1 || days > MAX_TRUSTED_DAYS)
    throw new Error(
      `VITE_INBOX_TRUSTED_DAYS is "${value}": it takes a whole number of days from 1 to ${MAX_TRUSTED_DAYS}.`,
    )
  return days
}
