import { describe, expect, it } from 'vitest'
import { ENV_DEFAULTS, EnvError, LOCAL_SUPABASE_ANON_KEY, parseSiteEnv } from './env'

describe('parseSiteEnv', () => {
  it('uses the documented defaults when nothing is set', () => {
    const env = parseSiteEnv({})
    expect(env).toEqual({
      agencyName: ENV_DEFAULTS.VITE_AGENCY_NAME,
      siteUrl: ENV_DEFAULTS.VITE_SITE_URL,
      telegramUrl: ENV_DEFAULTS.VITE_TELEGRAM_URL,
      whatsappUrl: ENV_DEFAULTS.VITE_WHATSAPP_URL,
      founderEmail: ENV_DEFAULTS.VITE_FOUNDER_EMAIL,
      supabaseUrl: 'http://127.0.0.1:54321',
      supabaseAnonKey: LOCAL_SUPABASE_ANON_KEY,
    })
  })

  it('takes set values, trimmed, and drops a trailing slash from URLs', () => {
    const env = parseSiteEnv({
      VITE_AGENCY_NAME: '  Night Desk ',
      VITE_SITE_URL: 'https://night.example/',
      VITE_SUPABASE_URL: 'https://abcd.supabase.co/',
      VITE_SUPABASE_ANON_KEY: 'sb_publishable_xyz',
    })
    expect(env.agencyName).toBe('Night Desk')
    expect(env.siteUrl).toBe('https://night.example')
    expect(env.supabaseUrl).toBe('https://abcd.supabase.co')
    expect(env.supabaseAnonKey).toBe('sb_publishable_xyz')
  })

  it('treats an empty variable as unset', () => {
    expect(parseSiteEnv({ VITE_AGENCY_NAME: '   ' }).agencyName).toBe(ENV_DEFAULTS.VITE_AGENCY_NAME)
  })

  it('fails loudly, naming the variable, on a malformed URL', () => {
    expect(() => parseSiteEnv({ VITE_SUPABASE_URL: 'localhost:54321' })).toThrow(EnvError)
    expect(() => parseSiteEnv({ VITE_SUPABASE_URL: 'not a url' })).toThrow(/VITE_SUPABASE_URL/)
  })

  it('refuses a messaging link that is not https', () => {
    expect(() => parseSiteEnv({ VITE_TELEGRAM_URL: 'http://t.me/x' })).toThrow(/VITE_TELEGRAM_URL must use https:/)
  })

  it('refuses a founder email that is not an address', () => {
    expect(() => parseSiteEnv({ VITE_FOUNDER_EMAIL: 'founder' })).toThrow(/VITE_FOUNDER_EMAIL/)
  })
})
