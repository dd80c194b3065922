import { describe, expect, it } from 'vitest'
import { PAD_BUCKET_BYTES } from '../submission/sealed-document'
import { replyFileObjectName } from './reply-files'
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

/** A file of the message `id` in the inquiry's thread, as the inbox lists one it uploaded. */
const file = (n: number, messageId = id, inquiry = inquiryId) => ({
  object: replyFileObjectName(
    inquiry,
    messageId,
    `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  ),
  name: `Proposal ${n}.pdf`,
  type: 'application/pdf',
  size: 1000 + n,
  sha256: String(n).repeat(64).slice(0, 64),
})

/** Reads `text` as the row `row`, or names the problem. */
const problemOf = (text: string, at: Parameters<typeof parseThreadMessage>[1] = row) => {
  try {
    parseThreadMessage(text, at)
    return 'parsed'
  } catch (error) {
    return (error as ThreadMessageError).problem
  }
}

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
      attachments: [],
    })
    const text = padThreadMessage(draft, filler)
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'v',
      'id',
      'inquiry_id',
      'from',
      'body',
      'sent_at',
      'attachments',
      'pad',
    ])
    expect(parseThreadMessage(text, row)).toEqual({ v: 1, ...draft, pad: expect.any(String) })
  })

  it('carries its files: object, name, type, size, SHA-256, and nothing else', () => {
    const files = [file(1), file(2)]
    const draft = buildThreadMessage('The deck, signed.', {
      id,
      inquiryId,
      from: 'agency',
      now,
      attachments: files.map((one) => ({ ...one, extra: 'dropped' })),
    })
    const text = padThreadMessage(draft, filler)
    expect(text).not.toContain('dropped')
    const read = parseThreadMessage(text, row)
    expect(read.attachments).toEqual(files)
    expect(Object.keys(read.attachments[0]!)).toEqual(['object', 'name', 'type', 'size', 'sha256'])
  })

  it('always lists its files: a message without the list is not one, nor one of another version', () => {
    const text = padThreadMessage(
      buildThreadMessage('Thursday', { id, inquiryId, from: 'agency', now }),
      filler,
    )
    const { attachments: _none, ...withoutList } = JSON.parse(text) as Record<string, unknown>
    expect(problemOf(JSON.stringify(withoutList))).toBe('invalid')
    expect(problemOf(text.replace('"v":1', '"v":9'))).toBe('unknown-version')
  })

  it('refuses files outside its own folder, or more than five', () => {
    const build = (attachments: ReturnType<typeof file>[]) =>
      buildThreadMessage('Files', { id, inquiryId, from: 'agency', now, attachments })
    const otherMessage = '6f1e8c2a-0b3d-4e5f-8a9b-0c1d2e3f4a5b'
    expect(() => build([file(1, otherMessage)])).toThrow(TypeError)
    expect(() => build([file(1, id, otherMessage)])).toThrow(TypeError)
    expect(() => build([1, 2, 3, 4, 5, 6].map((n) => file(n)))).toThrow(TypeError)
    expect(build([1, 2, 3, 4, 5].map((n) => file(n))).attachments).toHaveLength(5)

    // Read back: a file moved from another message's folder, or six files, are not this message.
    const text = padThreadMessage(build([file(1)]), filler)
    const moved = JSON.parse(text) as { attachments: ReturnType<typeof file>[] }
    moved.attachments = [file(1, otherMessage)]
    expect(problemOf(JSON.stringify(moved))).toBe('invalid')
    moved.attachments = [1, 2, 3, 4, 5, 6].map((n) => file(n))
    expect(problemOf(JSON.stringify(moved))).toBe('invalid')
    moved.attachments = [{ ...file(1), object: `${inquiryId}/${file(1).object.split('/')[2]}` }]
    expect(problemOf(JSON.stringify(moved))).toBe('invalid')
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
    const problem = (at: Parameters<typeof parseThreadMessage>[1]) => problemOf(text, at)
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
    expect(attempt(JSON.stringify({ v: 9, body: 'Thursday' }))).toBe('unknown-version')
    expect(attempt(JSON.stringify({ v: 1, body: 'Thursday' }))).toBe('invalid')
  })
})
