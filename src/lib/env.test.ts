import { describe, expect, it } from 'vitest'
import { keySetId } from '../shared/submission/sealed-row'
import {
  ENV_DEFAULTS,
  EnvError,
  LOCAL_SUPABASE_ANON_KEY,
  assertRecipientsFor,
  isLocalSupabaseUrl,
  parseSiteEnv,
  parseSigningKeys,
  parseSubmissionRecipients,
  submissionKeysFor,
} from './env'

// Recipients generated once with age-encryption (their identities were thrown away).
const STAFF = 'age163nrfhucxd064xnq2cp4fn7p2pwkfu6zs33y9akjjgkc4f8jupyssy33p0'
const ESCROW = 'age1qv5gmwg854s6xwna57gp4qhpuqanmv4jzkevtvmgjd9d8p77va7q2wzr0z'
const SIGNING = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'

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
    expect(() => parseSiteEnv({ VITE_TELEGRAM_URL: 'http://t.me/x' })).toThrow(
      /VITE_TELEGRAM_URL must use https:/,
    )
  })

  it('refuses a founder email that is not an address', () => {
    expect(() => parseSiteEnv({ VITE_FOUNDER_EMAIL: 'founder' })).toThrow(/VITE_FOUNDER_EMAIL/)
  })
})

describe('submissionKeysFor', () => {
  it('gives the recipients, in order and once each, and the key_id of their set', async () => {
    const recipients = parseSubmissionRecipients({
      VITE_SUBMISSION_RECIPIENTS: ` ${STAFF} ,${ESCROW},${STAFF},`,
    })
    expect(await submissionKeysFor(recipients, [SIGNING])).toEqual({
      recipients: [STAFF, ESCROW],
      keyId: await keySetId([ESCROW, STAFF]),
      signingKeys: [SIGNING],
      fingerprintId: await keySetId([ESCROW, SIGNING, STAFF]),
    })
  })

  it('gives a fingerprint that changes with the signing key, the key_id staying the set’s', async () => {
    const other = 'f'.repeat(64)
    const one = await submissionKeysFor([STAFF], [SIGNING])
    const swapped = await submissionKeysFor([STAFF], [other])
    expect(swapped?.keyId).toBe(one?.keyId)
    expect(swapped?.fingerprintId).not.toBe(one?.fingerprintId)
  })

  it('is null without recipients: sealing then fails closed', async () => {
    expect(await submissionKeysFor([], [])).toBeNull()
  })
})

describe('parseSigningKeys', () => {
  it('reads the comma-separated keys once each, and names the variable and entry when one is malformed', () => {
    expect(parseSigningKeys({})).toEqual([])
    expect(parseSigningKeys({ VITE_AGENCY_SIGNING_KEYS: ` ${SIGNING}, ${SIGNING},` })).toEqual([
      SIGNING,
    ])
    expect(() => parseSigningKeys({ VITE_AGENCY_SIGNING_KEYS: SIGNING.toUpperCase() })).toThrow(
      /VITE_AGENCY_SIGNING_KEYS .*D75A/,
    )
  })
})

describe('parseSubmissionRecipients', () => {
  it('is empty when unset', () => {
    expect(parseSubmissionRecipients({})).toEqual([])
    expect(parseSubmissionRecipients({ VITE_SUBMISSION_RECIPIENTS: ' , ' })).toEqual([])
  })

  it('fails, naming the variable and the entry, on a malformed recipient', () => {
    const typo = STAFF.replace('63nr', '63ns')
    for (const bad of [typo, 'age1abc', 'AGE-SECRET-KEY-1QQQ', STAFF.toUpperCase()]) {
      expect(() =>
        parseSubmissionRecipients({ VITE_SUBMISSION_RECIPIENTS: `${ESCROW},${bad}` }),
      ).toThrow(
        new EnvError(
          'VITE_SUBMISSION_RECIPIENTS',
          `must list X25519 age recipients (age1…, as age-keygen prints them), got "${bad}"`,
        ),
      )
    }
  })
})

describe('assertRecipientsFor', () => {
  it('lets a local Supabase build without recipients (the development key steps in)', () => {
    for (const url of ['http://127.0.0.1:54321', 'http://localhost:54321', 'http://[::1]:54321']) {
      expect(isLocalSupabaseUrl(url)).toBe(true)
      expect(() => assertRecipientsFor(url, [], [])).not.toThrow()
    }
  })

  it('stops a hosted Supabase build without recipients, naming VITE_SUBMISSION_RECIPIENTS', () => {
    expect(isLocalSupabaseUrl('https://abcd.supabase.co')).toBe(false)
    expect(() => assertRecipientsFor('https://abcd.supabase.co', [], [])).toThrow(
      /VITE_SUBMISSION_RECIPIENTS must be set/,
    )
    expect(() => assertRecipientsFor('https://abcd.supabase.co', [STAFF], [SIGNING])).not.toThrow()
  })

  it('stops a build with recipients but no signing keys: every reply would show as not the agency’s', () => {
    expect(() => assertRecipientsFor('http://127.0.0.1:54321', [STAFF], [])).toThrow(
      /VITE_AGENCY_SIGNING_KEYS must be set/,
    )
  })
})
