import { createClient } from '@supabase/supabase-js'
import { siteEnv } from './env'

/**
 * The one Supabase client (spec §7): fixed project address and public anon key from configuration,
 * session persisted in localStorage with automatic token refresh. Imported only through a dynamic
 * import at the moment a submission is sent, so no page pays for it up front.
 */
export const supabase = createClient(siteEnv.supabaseUrl, siteEnv.supabaseAnonKey, {
  auth: { persistSession: true, autoRefreshToken: true, storage: globalThis.localStorage },
})
