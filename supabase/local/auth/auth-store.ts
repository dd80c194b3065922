import type { Database } from '../database'
import { factorStore } from './factor-store'
import { sessionStore } from './session-store'
import { userStore } from './user-store'

/**
 * Supabase Auth's records in the tables GoTrue keeps them in (the subset bootstrap.sql creates):
 * users (user-store.ts), sessions and refresh tokens (session-store.ts), TOTP factors and their
 * challenges (factor-store.ts).
 */
export function createAuthStore(db: Database) {
  return { ...userStore(db), ...sessionStore(db), ...factorStore(db) }
}

export type AuthStore = ReturnType<typeof createAuthStore>
