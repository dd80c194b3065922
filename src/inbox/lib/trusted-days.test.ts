// @vitest-environment node
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DEFAULT_TRUSTED_DAYS, parseTrustedDays } from './trusted-days'

describe('VITE_INBOX_TRUSTED_DAYS', () => {
  it('defaults to 30 days and takes whole days from 1 to 365', () => {
    expect(parseTrustedDays(undefined)).toBe(30)
    expect(parseTrustedDays('')).toBe(30)
    expect(parseTrustedDays(' 7 ')).toBe(7)
    for (const wrong of ['0', '366', '1.5', 'a month', '-3'])
      expect(() => parseTrustedDays(wrong)).toThrow(/whole number of days from 1 to 365/)
  })

  it('agrees with supabase/config.toml’s [auth.sessions] timebox', () => {
    const config = readFileSync(new URL('../../../supabase/config.toml', import.meta.url), 'utf8')
    const timebox = /\[auth\.sessions\][^[]*?\ntimebox = "(\d+)h"/.exec(config)?.[1]
    expect(Number(timebox)).toBe(DEFAULT_TRUSTED_DAYS * 24)
  })
})
