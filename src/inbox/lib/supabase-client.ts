import { createClient } from '@supabase/supabase-js'
import type { Database } from '../../shared/database-types'
import { inboxEnv } from './inbox-env'

/**
 * The inbox's one Supabase client. The session lives in sessionStorage: it survives a reload of
 * this tab (the key does not: a reload locks), ends with the tab, and "Sign out" removes it.
 */
export const supabase = createClient<Database>(inboxEnv.supabaseUrl, inboxEnv.supabaseAnonKey, {
  auth: {
    storage: window.sessionStorage,
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: false,
  },
})
