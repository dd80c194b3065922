import { describe, expect, it } from 'vitest'
import { REPLY_FILE_OBJECT_NAME, replyFileFolder, replyFileObjectName } from './reply-files'

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
