import { describe, expect, it } from 'vitest'
import {
  ATTACHMENT_LIMITS,
  ATTACHMENT_OBJECT_NAME,
  attachmentObjectName,
  ATTACHMENTS_BUCKET,
  checkAttachments,
  formatBytes,
  RESUMABLE_THRESHOLD_BYTES,
} from './attachments'

const MB = 1024 * 1024

describe('the attachments contract', () => {
  it('is the one setting FILES.md names: 5 files of 25 MB, the bucket, 6 MB chunks', () => {
    expect(ATTACHMENT_LIMITS).toEqual({ files: 5, bytesPerFile: 25 * MB })
    expect(ATTACHMENTS_BUCKET).toBe('contact-attachments')
    expect(RESUMABLE_THRESHOLD_BYTES).toBe(6 * MB)
  })

  it('names an object <submission id>/<object id>, lowercase, and nothing else', () => {
    const name = attachmentObjectName(
      '8F14E45F-CEEA-467F-A0E6-2C1B6C5A9D10',
      '3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3d',
    )
    expect(name).toBe('8f14e45f-ceea-467f-a0e6-2c1b6c5a9d10/3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3d')
    expect(ATTACHMENT_OBJECT_NAME.test(name)).toBe(true)
    expect(() => attachmentObjectName('deck.pdf', '3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3d')).toThrow()
    expect(ATTACHMENT_OBJECT_NAME.test(`${name}/deck.pdf`)).toBe(false)
  })

  it('checks the count, empty files and the size before anything is sealed', () => {
    const file = (size: number, name = 'a.pdf') => ({ name, size })
    expect(checkAttachments([])).toBeNull()
    expect(checkAttachments([file(1), file(25 * MB)])).toBeNull()
    expect(checkAttachments(Array.from({ length: 6 }, () => file(1)))).toEqual({
      kind: 'too-many',
      count: 6,
    })
    expect(checkAttachments([file(1), file(0, 'blank.txt')])).toEqual({
      kind: 'empty',
      name: 'blank.txt',
    })
    expect(checkAttachments([file(25 * MB + 1, 'big.mov')])).toEqual({
      kind: 'too-large',
      name: 'big.mov',
      size: 25 * MB + 1,
    })
  })

  it('says sizes in bytes, KB and MB', () => {
    expect(formatBytes(1)).toBe('1 byte')
    expect(formatBytes(812)).toBe('812 bytes')
    expect(formatBytes(14.2 * 1024)).toBe('14.2 KB')
    expect(formatBytes(20 * MB)).toBe('20.0 MB')
  })
})
