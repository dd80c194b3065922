import { describe, expect, it } from 'vitest'
import { PAD_BUCKET_BYTES } from '../submission/sealed-document'
import {
  buildThreadMessage,
  padThreadMessage,
  parseThreadMessage,
  THREAD_MESSAGE_MAX,
  ThreadMessageError,
} from './thread-message'

const inquiryId = '0b9d7c1e-4f3a-4c2b-9a1d-6e5f4a3b2c1d'
const id = '5d41402a-bc4b-4a76-b971-9d911017c592'
const now = Date.parse('2026-11-25T10:00:00.000Z')
const filler = (length: number) => 'A'.repeat(length)
const row = { id, inquiryId, direction: 'agency' as const }

describe('a thread message', () => {
  it('is built from a trimmed body, the ids and the time, and reads back as it was', () => {
    const draft = buildThreadMessage('  Thanks, we can talk Thursday.  ', {
      id,
      inquiryId,
      from: 'agency',
      now,
    })
    expect(draft).toEqual({
      id,
      inquiry_id: inquiryId,
      from: 'agency',
      body: 'Thanks, we can talk Thursday.',
      sent_at: '2026-11-25T10:00:00.000Z',
    })
    const text = padThreadMessage(draft, filler)
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'v',
      'id',
      'inquiry_id',
      'from',
      'body',
      'sent_at',
      'pad',
    ])
    expect(parseThreadMessage(text, row)).toEqual({ v: 1, ...draft, pad: expect.any(String) })
  })

  it('is padded to 1 KiB buckets, so its ciphertext says little about its length', () => {
    for (const body of ['ok', 'x'.repeat(1500), '🔐'.repeat(2500)]) {
      const text = padThreadMessage(
        buildThreadMessage(body, { id, inquiryId, from: 'visitor', now }),
        filler,
      )
      expect(new TextEncoder().encode(text).byteLength % PAD_BUCKET_BYTES).toBe(0)
    }
  })

  it('refuses an empty body and one over the brief’s limit', () => {
    expect(() => buildThreadMessage('   ', { id, inquiryId, from: 'agency', now })).toThrow()
    expect(() =>
      buildThreadMessage('x'.repeat(THREAD_MESSAGE_MAX + 1), {
        id,
        inquiryId,
        from: 'agency',
        now,
      }),
    ).toThrow()
  })

  it('is refused where the database put it somewhere else: another row, thread or direction', () => {
    const text = padThreadMessage(
      buildThreadMessage('hi', { id, inquiryId, from: 'agency', now }),
      filler,
    )
    const problem = (at: Parameters<typeof parseThreadMessage>[1]) => {
      try {
        parseThreadMessage(text, at)
        return 'parsed'
      } catch (error) {
        return (error as ThreadMessageError).problem
      }
    }
    expect(problem(row)).toBe('parsed')
    expect(problem({ ...row, id: inquiryId })).toBe('misplaced')
    expect(problem({ ...row, inquiryId: id })).toBe('misplaced')
    expect(problem({ ...row, direction: 'visitor' })).toBe('misplaced')
  })

  it('names the problem, never a value, when the text is not a message', () => {
    const attempt = (text: string) => {
      try {
        parseThreadMessage(text, row)
        return 'parsed'
      } catch (error) {
        expect((error as Error).message).not.toContain('Thursday')
        return (error as ThreadMessageError).problem
      }
    }
    expect(attempt('Thursday')).toBe('not-json')
    expect(attempt('null')).toBe('invalid')
    expect(attempt(JSON.stringify({ v: 2, body: 'Thursday' }))).toBe('unknown-version')
    expect(attempt(JSON.stringify({ v: 1, body: 'Thursday' }))).toBe('invalid')
  })
})
