import { describe, expect, it } from 'vitest'
import {
  FILE_LABEL_MAX,
  listedFileName,
  REPLY_FILE_OBJECT_NAME,
  replyFileFolder,
  replyFileObjectName,
} from './reply-files'

const inquiry = '0B9D7C1E-4F3A-4C2B-9A1D-6E5F4A3B2C1D'
const message = '5d41402a-bc4b-4a76-b971-9d911017c592'
const object = '6f1e8c2a-0b3d-4e5f-8a9b-0c1d2e3f4a5b'

describe('a reply file’s object', () => {
  it('is named <inquiry>/<message>/<object> in lowercase, under its message’s folder', () => {
    const name = replyFileObjectName(inquiry, message, object)
    expect(name).toBe(`${inquiry.toLowerCase()}/${message}/${object}`)
    expect(REPLY_FILE_OBJECT_NAME.test(name)).toBe(true)
    expect(name.startsWith(replyFileFolder(inquiry, message))).toBe(true)
    expect(() => replyFileObjectName(inquiry, message, 'report.pdf')).toThrow(TypeError)
    expect(REPLY_FILE_OBJECT_NAME.test(`${inquiry.toLowerCase()}/${object}`)).toBe(false)
  })
})

describe('a file’s name as a message lists it', () => {
  it('keeps a name within the limit as it is, and never lists an empty one', () => {
    expect(listedFileName('Deck v2.pdf')).toBe('Deck v2.pdf')
    expect(listedFileName('')).toBe('file')
  })

  it('cuts a longer name to the limit, keeping its extension and whole characters', () => {
    const long = `${'Rapport annuel '.repeat(30)}.pdf`
    const listed = listedFileName(long)
    expect(listed.length).toBe(FILE_LABEL_MAX)
    expect(listed.endsWith('.pdf')).toBe(true)
    const emoji = `${'📎'.repeat(200)}.png`
    const cut = listedFileName(emoji)
    expect(cut.length).toBeLessThanOrEqual(FILE_LABEL_MAX)
    expect(cut).toMatch(/^(📎)+\.png$/u)
    expect(listedFileName('x'.repeat(300)).length).toBe(FILE_LABEL_MAX)
  })
})
