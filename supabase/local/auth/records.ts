import { randomBytes } from 'node:crypto'

/**
 * Supabase Auth's records as the stand-in reads them from GoTrue's tables (the subset bootstrap.sql
 * creates): their shapes and columns. Timestamps leave the database as ISO strings.
 */

export const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

export type UserRecord = {
  id: string
  email: string | null
  encrypted_password: string | null
  is_anonymous: boolean
  email_confirmed_at: string | null
  last_sign_in_at: string | null
  created_at: string
  updated_at: string
}

export type FactorRecord = {
  id: string
  user_id: string
  friendly_name: string | null
  factor_type: string
  status: 'unverified' | 'verified'
  secret: string
  created_at: string
  updated_at: string
}

export type SessionRecord = {
  id: string
  user_id: string
  aal: 'aal1' | 'aal2'
  amr: { method: string; timestamp: number }[]
}

export const USER_COLUMNS = `id::text, email, encrypted_password, is_anonymous,
  ${iso('email_confirmed_at')} as email_confirmed_at, ${iso('last_sign_in_at')} as last_sign_in_at,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`

export const FACTOR_COLUMNS = `id::text, user_id::text, friendly_name, factor_type, status, secret,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`

/** A refresh token as GoTrue makes them: random, URL-safe, single use. */
export const newRefreshToken = () => randomBytes(24).toString('base64url')
/** The shape of every token `newRefreshToken` makes; anything else is refused unread. */
export const isRefreshTokenShaped = (token: string) => /^[A-Za-z0-9_-]{32}$/.test(token)
