import { describe, expect, it } from 'vitest'
import { asSigningSeed, signingKeyOf } from '../crypto/signing'
import { PAD_BUCKET_BYTES } from '../submission/sealed-document'
import { replyFileObjectName } from './reply-files'
import {
  buildThreadMessage,
  isSignedBy,
  messageHash,
  padThreadMessage,
  parseThreadMessage,
  THREAD_MESSAGE_MAX,
  ThreadMessageError,
} from './thread-message'

const inquiryId = '0b9d7c1e-4f3a-4c2b-9a1d-6e5f4a3b2c1d'
const id = '5d41402a-bc4b-4a76-b971-9d911017c592'
const now = Date.parse('2026-11-25T10:00:00.000Z')
const filler = (length: number) => 'A'.repeat(length)
const SEED = asSigningSeed(new Uint8Array(32).fill(1))
const FIRST = { seq: 1, answers: null }
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
      place: FIRST,
    })
    expect(draft).toEqual({
      id,
      inquiry_id: inquiryId,
      from: 'agency',
      body: 'Thanks, we can talk Thursday.',
      sent_at: '2026-11-25T10:00:00.000Z',
      attachments: [],
      seq: 1,
      answers: null,
    })
    const text = padThreadMessage(draft, SEED, filler)
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'v',
      'id',
      'inquiry_id',
      'from',
      'body',
      'sent_at',
      'attachments',
      'seq',
      'answers',
      'sig',
      'pad',
    ])
    expect(parseThreadMessage(text, row)).toEqual({
      v: 1,
      ...draft,
      sig: expect.any(String),
      pad: expect.any(String),
    })
  })

  it('carries its files: object, name, type, size, SHA-256, and nothing else', () => {
    const files = [file(1), file(2)]
    const draft = buildThreadMessage('The deck, signed.', {
      id,
      inquiryId,
      from: 'agency',
      now,
      attachments: files.map((one) => ({ ...one, extra: 'dropped' })),
      place: FIRST,
    })
    const text = padThreadMessage(draft, SEED, filler)
    expect(text).not.toContain('dropped')
    const read = parseThreadMessage(text, row)
    expect(read.attachments).toEqual(files)
    expect(Object.keys(read.attachments[0]!)).toEqual(['object', 'name', 'type', 'size', 'sha256'])
  })

  it('always lists its files: a message without the list is not one, nor one of another version', () => {
    const text = padThreadMessage(
      buildThreadMessage('Thursday', { id, inquiryId, from: 'agency', now, place: FIRST }),
      SEED,
      filler,
    )
    const { attachments: _none, ...withoutList } = JSON.parse(text) as Record<string, unknown>
    expect(problemOf(JSON.stringify(withoutList))).toBe('invalid')
    expect(problemOf(text.replace('"v":1', '"v":9'))).toBe('unknown-version')
  })

  it('refuses files outside its own folder, or more than five', () => {
    const build = (attachments: ReturnType<typeof file>[]) =>
      buildThreadMessage('Files', { id, inquiryId, from: 'agency', now, attachments, place: FIRST })
    const otherMessage = '6f1e8c2a-0b3d-4e5f-8a9b-0c1d2e3f4a5b'
    expect(() => build([file(1, otherMessage)])).toThrow(TypeError)
    expect(() => build([file(1, id, otherMessage)])).toThrow(TypeError)
    expect(() => build([1, 2, 3, 4, 5, 6].map((n) => file(n)))).toThrow(TypeError)
    expect(build([1, 2, 3, 4, 5].map((n) => file(n))).attachments).toHaveLength(5)

    // Read back: a file moved from another message's folder, or six files, are not this message.
    const text = padThreadMessage(build([file(1)]), SEED, filler)
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
        buildThreadMessage(body, { id, inquiryId, from: 'visitor', now, place: FIRST }),
        SEED,
        filler,
      )
      expect(new TextEncoder().encode(text).byteLength % PAD_BUCKET_BYTES).toBe(0)
    }
  })

  it('refuses an empty body and one over the brief’s limit', () => {
    expect(() =>
      buildThreadMessage('   ', { id, inquiryId, from: 'agency', now, place: FIRST }),
    ).toThrow()
    expect(() =>
      buildThreadMessage('x'.repeat(THREAD_MESSAGE_MAX + 1), {
        id,
        inquiryId,
        from: 'agency',
        now,
        place: FIRST,
      }),
    ).toThrow()
  })

  it('is refused where the database put it somewhere else: another row, thread or direction', () => {
    const text = padThreadMessage(
      buildThreadMessage('hi', { id, inquiryId, from: 'agency', now, place: FIRST }),
      SEED,
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

describe('a thread message’s signature', () => {
  const AGENCY = asSigningSeed(new Uint8Array(32).fill(2))
  const VISITOR = asSigningSeed(new Uint8Array(32).fill(3))
  // Anyone with write access: the public keys, and a key of their own.
  const FORGER = asSigningSeed(new Uint8Array(32).fill(4))
  const agencyKeys = [signingKeyOf(AGENCY)]
  const reply = (body: string, seed = AGENCY, place = FIRST) =>
    parseThreadMessage(
      padThreadMessage(
        buildThreadMessage(body, { id, inquiryId, from: 'agency', now, place }),
        seed,
        filler,
      ),
      row,
    )

  it('holds for the author’s key over exactly what was sealed', () => {
    expect(isSignedBy(reply('Thursday at ten.'), agencyKeys)).toBe(true)
  })

  it('does not hold for a message sealed with the public keys alone', () => {
    expect(isSignedBy(reply('Pay to this account instead.', FORGER), agencyKeys)).toBe(false)
    // Nor for the visitor's key standing in for the agency's.
    expect(isSignedBy(reply('Thursday at ten.', VISITOR), agencyKeys)).toBe(false)
  })

  it('does not hold once anything signed is changed: body, place, files or author', () => {
    const genuine = reply('Thursday at ten.')
    for (const changed of [
      { ...genuine, body: 'Friday at ten.' },
      { ...genuine, seq: 2 },
      { ...genuine, answers: 'a'.repeat(64) },
      { ...genuine, sent_at: '2026-11-26T10:00:00.000Z' },
      { ...genuine, from: 'visitor' as const },
      { ...genuine, inquiry_id: id },
    ]) {
      expect(isSignedBy(changed, agencyKeys)).toBe(false)
    }
  })

  it('is not another message’s: a signature swapped onto a second message fails', () => {
    const first = reply('Thursday at ten.')
    const second = reply('Send the deck to this address.')
    expect(isSignedBy({ ...second, sig: first.sig }, agencyKeys)).toBe(false)
  })

  it('has a hash that names the message, and changes with it', () => {
    const one = reply('Thursday at ten.')
    expect(messageHash(one)).toMatch(/^[0-9a-f]{64}$/)
    expect(messageHash(one)).toBe(messageHash(reply('Thursday at ten.', FORGER)))
    expect(messageHash(one)).not.toBe(messageHash(reply('Thursday at eleven.')))
  })
})
