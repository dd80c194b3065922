import { describe, expect, it, vi } from 'vitest'

vi.mock('../../../lib/supabase', () => ({ supabase: {} }))
const { classifyStandardUpload, classifyUploadStatus } = await import('./upload-attachments')

describe('an upload’s answer, as an outcome', () => {
  it('counts a stored object, or one already stored under its random name, as delivered', () => {
    expect(classifyStandardUpload({ error: null })).toEqual({ kind: 'delivered' })
    // Storage's refusal shape: HTTP 400 with the real status in statusCode.
    expect(
      classifyStandardUpload({ error: { status: 400, statusCode: '409', message: 'Duplicate' } }),
    ).toEqual({ kind: 'delivered' })
    expect(classifyUploadStatus(409, 'tus')).toEqual({ kind: 'delivered' })
  })

  it('queues on no answer, refuses with a sentence on a policy, retries a server error', () => {
    expect(classifyStandardUpload({ error: { message: 'Failed to fetch' } })).toMatchObject({
      kind: 'no-answer',
      reason: 'noAnswer',
    })
    expect(classifyUploadStatus(0, '')).toMatchObject({ kind: 'no-answer' })
    expect(classifyUploadStatus(429, '')).toMatchObject({ kind: 'no-answer', reason: 'busy' })
    expect(classifyUploadStatus(503, '')).toMatchObject({ kind: 'no-answer' })
    expect(classifyUploadStatus(500, '')).toMatchObject({ kind: 'server-error' })
    expect(
      classifyStandardUpload({
        error: { status: 400, statusCode: '403', message: 'new row violates row-level security' },
      }),
    ).toMatchObject({ kind: 'refused', reason: 'fileRefused' })
    expect(classifyUploadStatus(413, '')).toMatchObject({ kind: 'refused', reason: 'fileRefused' })
  })
})
