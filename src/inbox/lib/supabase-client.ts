import { createClient } from '@supabase/supabase-js'
import type { Database } from '../../shared/database-types'
import { inboxEnv } from './inbox-env'
import { createSessionStorage, SESSION_STORAGE_KEY } from './session-storage'

/**
 * Where the session lives: this tab's sessionStorage (it survives a reload of this tab, ends with
 * the tab), or localStorage on a trusted device ("Keep me signed in on this device"); see
 * session-storage.ts. The key never goes there: a reload locks.
 */
export const sessionStore = createSessionStorage(
  window.localStorage,
  window.sessionStorage,
  SESSION_STORAGE_KEY,
)

/** The inbox's one Supabase client. */
export const supabase = createClient<Database>(inboxEnv.supabaseUrl, inboxEnv.supabaseAnonKey, {
  auth: {
    storage: sessionStore.adapter,
    storageKey: SESSION_STORAGE_KEY,
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: false,
  },
})
