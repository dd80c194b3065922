import { generateIdentity, identityToRecipient } from 'age-encryption'
import { describe, expect, it } from 'vitest'
import { isAgeRecipient, shortRecipient } from './recipients'

// A recipient generated once with age-encryption (its identity was thrown away).
const AGE_TEST_RECIPIENT = 'age163nrfhucxd064xnq2cp4fn7p2pwkfu6zs33y9akjjgkc4f8jupyssy33p0'

describe('isAgeRecipient', () => {
  it('accepts what age generates', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect(isAgeRecipient(await identityToRecipient(await generateIdentity()))).toBe(true)
    }
    expect(isAgeRecipient(AGE_TEST_RECIPIENT)).toBe(true)
  })

  it('refuses a one-character typo (bech32 checksum)', () => {
    const typo = AGE_TEST_RECIPIENT.replace('63nr', '63ns')
    expect(isAgeRecipient(typo)).toBe(false)
  })

  it('refuses other spellings and other kinds of keys', () => {
    for (const candidate of [
      '',
      'age1',
      AGE_TEST_RECIPIENT.toUpperCase(),
      ` ${AGE_TEST_RECIPIENT}`,
      `${AGE_TEST_RECIPIENT}q`,
      'AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX',
      'age1pq1abcdefghjklmnpqrstuvwxyz',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHsKLqeplhpW+uObz5dvMgjz1OxfM/XXUB+VHtZ6isGN',
    ]) {
      expect(isAgeRecipient(candidate), candidate).toBe(false)
    }
  })
})

describe('shortRecipient', () => {
  it('keeps the prefix and the tail, which differ between keys', () => {
    expect(shortRecipient(AGE_TEST_RECIPIENT)).toBe('age163nrfh…sy33p0')
  })
})
