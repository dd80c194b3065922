import { describe, expect, it } from 'vitest'
import { SealingError, type SealingFailure } from './sealing-error'

const REASONS: SealingFailure[] = [
  'unavailable',
  'no-webcrypto',
  'no-recipients',
  'invalid-recipient',
  'encrypt-failed',
  'file-unreadable',
  'too-long',
]

describe('SealingError', () => {
  it.each(REASONS)('"%s" tells the visitor, in a sentence, that nothing was sent', (reason) => {
    const error = new SealingError(reason)
    // The form shows `message` as it is (submit-contact.ts), so it must read as text for a person.
    expect(error.message).toMatch(/^[A-Z][\s\S]*\.$/)
    expect(error.message.split(' ').length).toBeGreaterThanOrEqual(8)
    expect(error.message).toContain('nothing was sent')
    expect(error.reason).toBe(reason)
  })

  it('gives each reason its own explanation', () => {
    const messages = REASONS.map((reason) => new SealingError(reason).message)
    expect(new Set(messages).size).toBe(REASONS.length)
  })

  it('points to what the visitor can do: retry where that can help, another channel where it cannot', () => {
    const advice = (reason: SealingFailure) => new SealingError(reason).message
    expect(advice('unavailable')).toMatch(/try again/i)
    expect(advice('encrypt-failed')).toMatch(/try again/i)
    for (const reason of ['no-webcrypto', 'no-recipients', 'invalid-recipient'] as const) {
      expect(advice(reason)).toMatch(/Telegram or WhatsApp/)
    }
  })

  it('is recognisable by name after crossing a module boundary, and keeps its cause for the console', () => {
    const cause = new TypeError('Failed to fetch dynamically imported module')
    const error = new SealingError('unavailable', { cause })
    // submit-contact.ts tells a SealingError from any other failure by its name.
    expect(error.name).toBe('SealingError')
    expect(error).toBeInstanceOf(Error)
    expect(error.cause).toBe(cause)
  })
})
