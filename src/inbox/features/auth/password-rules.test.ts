import { describe, expect, it } from 'vitest'
import { keyGroups, passwordProblem } from './password-rules'

describe('a new password, before Auth is asked', () => {
  it('must be repeated, 12 characters at least and 72 bytes at most', () => {
    expect(passwordProblem('a long new password', 'a long new passw0rd')).toBe('mismatch')
    expect(passwordProblem('short', 'short')).toBe('too-short')
    expect(passwordProblem('p'.repeat(72), 'p'.repeat(72))).toBeNull()
    // Bytes, not characters: 25 euro signs are 75 bytes.
    expect(passwordProblem('€'.repeat(25), '€'.repeat(25))).toBe('too-long')
    expect(passwordProblem('a long new password', 'a long new password')).toBeNull()
  })
})

describe('the setup key', () => {
  it('reads in groups of four', () => {
    expect(keyGroups('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toEqual([
      'JBSW',
      'Y3DP',
      'EHPK',
      '3PXP',
      'JBSW',
      'Y3DP',
      'EHPK',
      '3PXP',
    ])
    expect(keyGroups('ABCDEF')).toEqual(['ABCD', 'EF'])
  })
})
