import { describe, expect, it } from 'vitest'
import { uploadFiles, type UploadTarget } from './upload-files'
import { classifyStandardUpload, classifyUploadStatus } from './upload-outcome'

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

describe('uploading files one after the other', () => {
  /** A Storage client that answers each upload with the next of `answers`, and records the calls. */
  function storageAnswering(...answers: Parameters<typeof classifyStandardUpload>[0][]) {
    const calls: { bucket: string; path: string; options: unknown }[] = []
    const target: UploadTarget = {
      storage: {
        from: (bucket) => ({
          upload: (path, _body, options) => {
            calls.push({ bucket, path, options })
            return Promise.resolve(answers.shift() ?? { error: null })
          },
        }),
      },
      url: 'http://127.0.0.1:1',
      apikey: 'key',
      bearer: 'token',
      bucket: 'conversation-files',
      resumeKeyPrefix: null,
    }
    return { calls, target }
  }
  const file = (object: string) => ({ object, ciphertext: new Blob(['sealed bytes']) })

  it('stores every file as an insert of application/octet-stream, and reports each one', async () => {
    const { calls, target } = storageAnswering()
    const stored: string[] = []
    const progress: number[] = []
    const outcome = await uploadFiles(
      [file('a/b/1'), file('a/b/2')],
      target,
      (sent) => progress.push(sent),
      (object) => stored.push(object),
    )
    expect(outcome).toEqual({ kind: 'delivered' })
    expect(calls).toEqual([
      {
        bucket: 'conversation-files',
        path: 'a/b/1',
        options: { contentType: 'application/octet-stream', upsert: false },
      },
      {
        bucket: 'conversation-files',
        path: 'a/b/2',
        options: { contentType: 'application/octet-stream', upsert: false },
      },
    ])
    expect(stored).toEqual(['a/b/1', 'a/b/2'])
    expect(progress.at(-1)).toBe(24)
  })

  it('stops at the first file not stored and answers with its outcome', async () => {
    const { calls, target } = storageAnswering(
      { error: null },
      { error: { status: 400, statusCode: '403', message: 'new row violates row-level security' } },
    )
    const stored: string[] = []
    const outcome = await uploadFiles(
      [file('a/b/1'), file('a/b/2'), file('a/b/3')],
      target,
      undefined,
      (object) => stored.push(object),
    )
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'fileRefused' })
    expect(calls.map((call) => call.path)).toEqual(['a/b/1', 'a/b/2'])
    expect(stored).toEqual(['a/b/1'])
  })

  it('counts a client that throws (offline) as no answer', async () => {
    const target: UploadTarget = {
      ...storageAnswering().target,
      storage: {
        from: () => ({ upload: () => Promise.reject(new TypeError('Failed to fetch')) }),
      },
    }
    expect(await uploadFiles([file('a/b/1')], target)).toMatchObject({
      kind: 'no-answer',
      reason: 'noAnswer',
    })
  })
})
