import { createClient } from '@supabase/supabase-js'
import type { Database } from '../shared/database-types'
import { siteEnv } from './env'

/**
 * The one Supabase client: the project address and public anon key from configuration. Visitors
 * never sign in, so the client keeps no session at all: nothing in localStorage, no refresh timer,
 * no reading of tokens from the address bar. Imported only through load-backend.ts, when something
 * is sent, so no page pays for it up front.
 */
export const supabase = createClient<Database>(siteEnv.supabaseUrl, siteEnv.supabaseAnonKey, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
})
