// @vitest-environment node
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { recipientSetId } from './key-id'

const a = 'age1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
const b = 'age1bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'

describe('recipientSetId', () => {
  it('hashes the sorted recipients joined by newlines, 16 hex characters', () => {
    const expected = createHash('sha256').update(`${a}\n${b}`).digest('hex').slice(0, 16)
    expect(recipientSetId([b, a])).toBe(expected)
    expect(expected).toMatch(/^[0-9a-f]{16}$/)
  })

  it('ignores order and repeats', () => {
    expect(recipientSetId([a, b, a])).toBe(recipientSetId([b, a]))
  })

  it('tells a one-recipient set from a rotation set', () => {
    expect(recipientSetId([a])).not.toBe(recipientSetId([a, b]))
  })
})
