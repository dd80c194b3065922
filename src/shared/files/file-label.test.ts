import { describe, expect, it } from 'vitest'
import { FILE_LABEL_MAX, listedFileName, listedFileType } from './file-label'

describe('a file’s name as a document lists it', () => {
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

describe('a file’s type as a document lists it', () => {
  it('keeps a media type as the browser gave it', () => {
    expect(listedFileType('application/pdf')).toBe('application/pdf')
    expect(listedFileType('text/plain;charset=utf-8')).toBe('text/plain;charset=utf-8')
    expect(
      listedFileType('application/vnd.openxmlformats-officedocument.presentationml.presentation'),
    ).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation')
  })

  it('lists none for an unknown, malformed or overlong type', () => {
    expect(listedFileType('')).toBe('')
    expect(listedFileType('pdf')).toBe('')
    expect(listedFileType('text/plain\u0001')).toBe('')
    expect(listedFileType(`application/${'x'.repeat(FILE_LABEL_MAX)}`)).toBe('')
  })
})
