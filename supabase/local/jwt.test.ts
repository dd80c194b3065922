// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { LOCAL_SUPABASE_ANON_KEY } from '../../src/lib/env'
import { apiKeysFor, checkApiKey, DEMO_JWT_SECRET, LOCAL_PUBLISHABLE_KEY } from './api-keys'
import { signJwt, verifyJwt } from './jwt'

const NOW = 1_800_000_000
const SECRET = DEMO_JWT_SECRET

/** The published keys of the Supabase CLI (pkg/config/config_test.go). */
const CLI_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'
const CLI_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'

describe('local API keys', () => {
  it('are the Supabase CLI demo keys when signed with the demo secret', () => {
    expect(apiKeysFor(DEMO_JWT_SECRET)).toEqual({
      anonKey: CLI_ANON_KEY,
      serviceRoleKey: CLI_SERVICE_ROLE_KEY,
    })
  })

  it('include the anon key the site uses by default', () => {
    expect(apiKeysFor(DEMO_JWT_SECRET).anonKey).toBe(LOCAL_SUPABASE_ANON_KEY)
  })

  it('swap the publishable key for the anon JWT when it is also the bearer token', () => {
    expect(checkApiKey(LOCAL_PUBLISHABLE_KEY, `Bearer ${LOCAL_PUBLISHABLE_KEY}`, SECRET)).toEqual({
      ok: true,
      authorization: `Bearer ${CLI_ANON_KEY}`,
    })
  })

  it('keep a bearer token the client sent', () => {
    expect(checkApiKey(CLI_ANON_KEY, 'Bearer user-token', SECRET)).toEqual({
      ok: true,
      authorization: 'Bearer user-token',
    })
  })
})

describe('verifyJwt', () => {
  const token = (claims: Record<string, unknown>) => signJwt(claims, SECRET)
  const [header = '', payload = '', signature = ''] = token({ role: 'anon' }).split('.')

  it('accepts a token signed with the secret and returns its claims', () => {
    expect(verifyJwt(token({ role: 'anon', exp: NOW + 60 }), SECRET, NOW)).toEqual({
      ok: true,
      claims: { role: 'anon', exp: NOW + 60 },
    })
  })

  it.each([
    {
      case: 'a changed payload',
      value: `${header}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.${signature}`,
      message: 'No suitable key or wrong key type',
    },
    {
      case: 'a truncated signature',
      value: `${header}.${payload}.${signature.slice(0, -2)}`,
      message: 'No suitable key or wrong key type',
    },
    {
      case: 'another algorithm',
      value: `${Buffer.from('{"alg":"HS512"}').toString('base64url')}.${payload}.${signature}`,
      message: 'No suitable key or wrong key type',
    },
    {
      case: 'a header that is not JSON',
      value: `bm90IGpzb24.${payload}.${signature}`,
      message: 'JWT cryptographic operation failed',
    },
    {
      case: 'characters outside base64url',
      value: `${header}.${payload}.${signature}+/`,
      message: 'No suitable key or wrong key type',
    },
    {
      case: 'four parts',
      value: `${header}.${payload}.${signature}.x`,
      message: 'Expected 3 parts in JWT; got 4',
    },
  ])('refuses $case (PGRST301)', ({ value, message }) => {
    expect(verifyJwt(value, SECRET, NOW)).toMatchObject({ ok: false, code: 'PGRST301', message })
  })

  it.each([
    { case: 'expired more than 30 s ago', claims: { exp: NOW - 31 }, message: 'JWT expired' },
    {
      case: 'not valid for more than 30 s yet',
      claims: { nbf: NOW + 31 },
      message: 'JWT not yet valid',
    },
    {
      case: 'issued more than 30 s in the future',
      claims: { iat: NOW + 31 },
      message: 'JWT issued at future',
    },
    {
      case: 'with a text exp',
      claims: { exp: String(NOW + 60) },
      message: "The JWT 'exp' claim must be a number",
    },
  ])('refuses a token $case (PGRST303)', ({ claims, message }) => {
    expect(verifyJwt(token({ role: 'anon', ...claims }), SECRET, NOW)).toMatchObject({
      ok: false,
      code: 'PGRST303',
      message,
    })
  })

  it('allows 30 s of clock skew', () => {
    expect(verifyJwt(token({ exp: NOW - 30, nbf: NOW + 30, iat: NOW + 30 }), SECRET, NOW).ok).toBe(
      true,
    )
  })
})
