import { createClient } from '@supabase/supabase-js'
import type { Database } from '../../shared/database-types'
import { inboxEnv } from './inbox-env'
import { createSessionStorage, SESSION_STORAGE_KEY } from './session-storage'

export const sessionStore = createSessionStorage(
  window.localStorage,
  window.sessionStorage,
  SESSION_STORAGE_KEY,
)

export const supabase = createClient<Database>(inboxEnv.supabaseUrl, inboxEnv.supabaseAnonKey, {
  auth: {
    storage: sessionStore.adapter,
    storageKey: SESSION_STORAGE_KEY,
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: false,
  },
})
