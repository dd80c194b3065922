import { describe, expect, it } from 'vitest'
import { SealError, type SealFailure } from '../../../shared/crypto/seal-error'
import { sealingFailure, sealingFailures } from '../contact-copy'

const REASONS = Object.keys(sealingFailures) as (SealFailure | 'unavailable')[]

describe('sealingFailures', () => {
  it.each(REASONS)('"%s" tells the visitor, in a sentence, that nothing was sent', (reason) => {
    const message = sealingFailures[reason]
    expect(message).toMatch(/^[A-Z][\s\S]*\.$/)
    expect(message.split(' ').length).toBeGreaterThanOrEqual(8)
    expect(message).toContain('nothing was sent')
  })

  it('gives each reason its own explanation', () => {
    expect(new Set(Object.values(sealingFailures)).size).toBe(REASONS.length)
    expect(REASONS).toHaveLength(7)
  })

  it('points to what the visitor can do: retry where that can help, another channel where it cannot', () => {
    expect(sealingFailures.unavailable).toMatch(/try again/i)
    expect(sealingFailures['encrypt-failed']).toMatch(/try again/i)
    for (const reason of ['no-webcrypto', 'no-recipients', 'invalid-recipient'] as const) {
      expect(sealingFailures[reason]).toMatch(/Telegram or WhatsApp/)
    }
  })

  it('words a SealError by its reason, and a crypto code that could not load as unavailable', () => {
    expect(sealingFailure(new SealError('too-long'))).toBe(sealingFailures['too-long'])
    const notLoaded = new TypeError('Failed to fetch dynamically imported module')
    expect(sealingFailure(notLoaded)).toBe(sealingFailures.unavailable)
  })
})
