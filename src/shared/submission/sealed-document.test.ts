import { describe, expect, it } from 'vitest'
import { FILLED_FIELDS, NIGHT_OWL } from './submission-test-fixtures'
import { LIMITS, submissionFieldsSchema } from './fields'
import {
  buildDocument,
  DocumentError,
  PAD_BUCKET_BYTES,
  padDocument,
  parseSealedDocument,
  type SubmissionDocument,
} from './sealed-document'

const submission = NIGHT_OWL

/** Random base64url filler, as the sealer draws it. */
const filler = (length: number) =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(length))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .slice(0, length)
const pad = (doc: SubmissionDocument) => padDocument(doc, filler)

const byteLength = (text: string) => new TextEncoder().encode(text).byteLength
const unpaddedLength = (doc: SubmissionDocument) =>
  byteLength(JSON.stringify({ v: 1, ...doc, attachments: doc.attachments ?? [], pad: '' }))

const filled = FILLED_FIELDS

describe('the document to seal', () => {
  const id = '8f14e45f-ceea-467f-a0e6-2c1b6c5a9d10'
  const now = Date.parse('2025-03-01T09:00:00.000Z')

  it('holds the parsed fields under the same names, the browser id, time, user agent and reply recipient', () => {
    const document = buildDocument(submissionFieldsSchema.parse(filled), {
      id,
      now,
      userAgent: 'TestAgent/1.0',
      replyTo: NIGHT_OWL.reply_to,
      signingKey: NIGHT_OWL.signing_key,
    })
    expect(document).toEqual({
      id,
      name: 'Ada',
      contact: '@ada_l',
      project_type: 'crypto/web3-launch',
      budget: '10k-25k',
      message: 'Token launch in Q3.',
      user_agent: 'TestAgent/1.0',
      submitted_at: '2025-03-01T09:00:00.000Z',
      reply_to: NIGHT_OWL.reply_to,
      signing_key: NIGHT_OWL.signing_key,
      attachments: [],
    })
  })

  it('cuts an over-long user agent to the limit', () => {
    const document = buildDocument(submissionFieldsSchema.parse(filled), {
      id,
      now,
      userAgent: 'U'.repeat(900),
      replyTo: NIGHT_OWL.reply_to,
      signingKey: NIGHT_OWL.signing_key,
    })
    expect(document.user_agent).toHaveLength(LIMITS.userAgent)
  })
})

describe('padDocument', () => {
  const cases: Record<string, Partial<SubmissionDocument>> = {
    ascii: {},
    emoji: {
      name: '🦉 Night Owl 🔐',
      message: 'Launch 🚀🚀🚀 with 👨‍👩‍👧 family emoji and flags 🇵🇹🇯🇵',
    },
    'right-to-left': {
      name: 'ليلى',
      message: 'مرحبا، نريد حملة هادئة. שלום, אנחנו צריכים קמפיין שקט.',
    },
    '5,000 characters': { message: 'x'.repeat(5000) },
    '5,000 characters of emoji': { message: '🔐'.repeat(2500) },
    'nulls for the optional fields': { project_type: null, budget: null },
  }

  for (const [label, overrides] of Object.entries(cases)) {
    it(`pads ${label} to the smallest 1 KiB bucket that holds it`, () => {
      const doc = { ...submission, ...overrides }
      const padded = pad(doc)
      const size = byteLength(padded)
      expect(size % PAD_BUCKET_BYTES).toBe(0)
      expect(size).toBe(Math.ceil(unpaddedLength(doc) / PAD_BUCKET_BYTES) * PAD_BUCKET_BYTES)
    })
  }

  it('keeps the contract field order and puts random base64url filler in pad', () => {
    const first = JSON.parse(pad(submission)) as Record<string, unknown>
    const second = JSON.parse(pad(submission)) as Record<string, unknown>
    expect(Object.keys(first)).toEqual([
      'v',
      'id',
      'name',
      'contact',
      'project_type',
      'budget',
      'message',
      'user_agent',
      'submitted_at',
      'reply_to',
      'signing_key',
      'attachments',
      'pad',
    ])
    expect(first.v).toBe(1)
    expect(first.attachments).toEqual([])
    expect(first.pad).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(first.pad).not.toBe(second.pad)
  })

  it('adds no filler when the document already fills its bucket exactly', () => {
    const short = { ...submission, message: '' }
    const exact = { ...short, message: 'm'.repeat(PAD_BUCKET_BYTES * 2 - unpaddedLength(short)) }
    const padded = pad(exact)
    expect(byteLength(padded)).toBe(PAD_BUCKET_BYTES * 2)
    expect(JSON.parse(padded)).toMatchObject({ pad: '' })
  })

  it('carries only the contract fields, whatever else the object holds', () => {
    const withExtra = { ...submission, password: 'hunter2' } as SubmissionDocument
    expect(pad(withExtra)).not.toContain('hunter2')
  })
})

describe('parseSealedDocument', () => {
  const sealedText = (changes: Record<string, unknown> = {}) =>
    JSON.stringify({ ...(JSON.parse(pad(submission)) as object), ...changes })

  it('reads back what padDocument wrote, every field as it was', () => {
    expect(parseSealedDocument(sealedText())).toMatchObject({
      v: 1,
      ...submission,
      attachments: [],
    })
  })

  it('reads its own version only: any other is unknown, whatever it holds', () => {
    for (const v of [0, 9]) {
      expect(() => parseSealedDocument(sealedText({ v })), String(v)).toThrow(
        'not a sealed submission document (unknown-version)',
      )
    }
  })

  it('requires the attachments list, even when empty', () => {
    expect(() => parseSealedDocument(sealedText({ attachments: undefined }))).toThrow(DocumentError)
  })

  it('requires reply_to, and only an age X25519 recipient', () => {
    expect(() => parseSealedDocument(sealedText({ reply_to: undefined }))).toThrow(DocumentError)
    for (const reply_to of ['age1short', 'AGE-SECRET-KEY-1ABC', `${NIGHT_OWL.reply_to}x`]) {
      expect(() => parseSealedDocument(sealedText({ reply_to })), reply_to).toThrow(DocumentError)
    }
  })

  it('requires the visitor’s public signing key, 64 lowercase hex characters', () => {
    expect(() => parseSealedDocument(sealedText({ signing_key: undefined }))).toThrow(DocumentError)
    for (const signing_key of [
      'ab',
      NIGHT_OWL.signing_key.toUpperCase(),
      `${NIGHT_OWL.signing_key}0`,
    ]) {
      expect(() => parseSealedDocument(sealedText({ signing_key })), signing_key).toThrow(
        DocumentError,
      )
    }
  })

  it('names the problem, never a value, when the text is not a document', () => {
    const problem = (text: string) => {
      try {
        parseSealedDocument(text)
      } catch (error) {
        expect(error).toBeInstanceOf(DocumentError)
        expect((error as DocumentError).name).toBe('DocumentError')
        expect((error as DocumentError).message).not.toContain('Night Owl')
        return (error as DocumentError).problem
      }
      return 'parsed'
    }
    expect(problem('Night Owl, not JSON')).toBe('not-json')
    expect(() => parseSealedDocument('{')).toThrow('not a sealed submission document (not-json)')
    expect(problem('null')).toBe('invalid')
    expect(problem('"Night Owl"')).toBe('invalid')
    expect(problem(JSON.stringify({ name: 'Night Owl' }))).toBe('invalid')
    expect(problem(sealedText({ v: 4 }))).toBe('unknown-version')
    expect(problem(sealedText({ v: '1' }))).toBe('unknown-version')
    expect(problem(sealedText({ name: '' }))).toBe('invalid')
  })

  it('takes filler of base64url characters only, of any length', () => {
    expect(parseSealedDocument(sealedText({ pad: '' })).pad).toBe('')
    expect(parseSealedDocument(sealedText({ pad: 'Ab9_-x' })).pad).toBe('Ab9_-x')
    for (const pad of ['!abc', 'abc!', 'a+b', 'ab=', 'a b']) {
      expect(() => parseSealedDocument(sealedText({ pad })), pad).toThrow(DocumentError)
    }
  })

  it('takes a user agent up to the limit, not beyond', () => {
    const agent = (length: number) => sealedText({ user_agent: 'U'.repeat(length) })
    expect(parseSealedDocument(agent(LIMITS.userAgent)).user_agent).toHaveLength(LIMITS.userAgent)
    expect(() => parseSealedDocument(agent(LIMITS.userAgent + 1))).toThrow(DocumentError)
  })
})

describe('attachments in the document', () => {
  const id = submission.id
  const file = {
    object: `${id}/3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3d`,
    name: 'Pitch deck – Q3 🚀.pdf',
    type: 'application/pdf',
    size: 20 * 1024 * 1024,
    sha256: 'a'.repeat(64),
  }
  const sealedWith = (attachments: unknown[]) =>
    JSON.stringify({ ...(JSON.parse(pad(submission)) as object), attachments })

  it('carries each file as the contract lists it, in order, and nothing else of it', () => {
    const text = pad({ ...submission, attachments: [{ ...file, lastModified: 1 } as typeof file] })
    expect(text).not.toContain('lastModified')
    expect(parseSealedDocument(text).attachments).toEqual([file])
    expect(Object.keys((JSON.parse(text) as { attachments: [object] }).attachments[0])).toEqual([
      'object',
      'name',
      'type',
      'size',
      'sha256',
    ])
  })

  it('takes at most five files, each under its own id and within the size limit', () => {
    const others = (count: number) =>
      Array.from({ length: count }, (_, index) => ({
        ...file,
        object: `${id}/3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3${index}`,
      }))
    expect(parseSealedDocument(sealedWith(others(5))).attachments).toHaveLength(5)
    expect(() => parseSealedDocument(sealedWith(others(6)))).toThrow(DocumentError)
    const bad = [
      { ...file, object: `8f14e45f-ceea-467f-a0e6-2c1b6c5a9d10/${file.object.slice(37)}` },
      { ...file, object: `${id}/not-a-uuid` },
      { ...file, object: file.object.toUpperCase() },
      { ...file, size: 25 * 1024 * 1024 + 1 },
      { ...file, size: 0 },
      { ...file, sha256: 'A'.repeat(64) },
      { ...file, name: '' },
    ]
    for (const attachment of bad) {
      expect(
        () => parseSealedDocument(sealedWith([attachment])),
        JSON.stringify(attachment),
      ).toThrow(DocumentError)
    }
  })
})
