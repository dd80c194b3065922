import { describe, expect, it } from 'vitest'
import { localHttpUrl, localPort, PortConfigError, withLocalSupabaseUrl } from './ports'

describe('the ports npm start serves on', () => {
  it('are the documented defaults when nothing is set', () => {
    expect([
      localPort('site', {}),
      localPort('inbox', {}),
      localPort('api', {}),
      localPort('db', {}),
    ]).toEqual([4173, 4174, 54321, 54322])
  })

  it('each follow their own variable, so a second checkout can run beside the first', () => {
    const env = {
      SITE_PORT: '4273',
      INBOX_PORT: '4274',
      LOCAL_API_PORT: '54421',
      LOCAL_DB_PORT: '54422',
    }
    expect([
      localPort('site', env),
      localPort('inbox', env),
      localPort('api', env),
      localPort('db', env),
    ]).toEqual([4273, 4274, 54421, 54422])
    // The staff alert's link to the inbox and the pages' Supabase address follow them.
    expect(`${localHttpUrl('inbox', env)}/`).toBe('http://127.0.0.1:4274/')
    expect(withLocalSupabaseUrl({}, env)).toEqual({ VITE_SUPABASE_URL: 'http://127.0.0.1:54421' })
  })

  it('keep a Supabase address that was set on purpose', () => {
    const set = { VITE_SUPABASE_URL: 'https://abc.supabase.co' }
    expect(withLocalSupabaseUrl(set, { LOCAL_API_PORT: '54421' })).toEqual(set)
  })

  it('refuse a value that is not a port, naming the variable', () => {
    expect(() => localPort('inbox', { INBOX_PORT: '80a' })).toThrow(
      new PortConfigError('INBOX_PORT must be a port number (0-65535), got "80a".'),
    )
    expect(() => localPort('api', { LOCAL_API_PORT: '70000' })).toThrow(/LOCAL_API_PORT/)
  })
})
