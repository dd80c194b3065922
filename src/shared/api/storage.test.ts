import { describe, expect, it, vi } from 'vitest'
import type { HttpResponse, HttpStack } from 'tus-js-client'
import { RESUMABLE_THRESHOLD_BYTES } from '../submission/attachments'
import {
  storageAnswer,
  storageStatusAnswer,
  uploadFiles,
  uploadOutcome,
  type StorageRefusal,
  type UploadTarget,
} from './storage'

const classifyStandardUpload = ({ error }: { error: StorageRefusal | null }) =>
  uploadOutcome(storageAnswer(error))
const classifyUploadStatus = (status: number, detail: string) =>
  uploadOutcome({ status, error: { message: detail } })

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

  it('reads a statement timeout as busy, kept and tried again: Storage’s 544, or an older 500 that says so', () => {
    const busy = { kind: 'no-answer', reason: 'busy' }
    expect(
      classifyStandardUpload({
        error: {
          status: 544,
          statusCode: '544',
          message: 'The connection to the database timed out',
        },
      }),
    ).toMatchObject(busy)
    expect(
      classifyStandardUpload({
        error: {
          status: 500,
          statusCode: '500',
          message: 'canceling statement due to statement timeout',
        },
      }),
    ).toMatchObject(busy)
    // The resumable endpoint's answer, as tus-js-client reports it.
    expect(
      uploadOutcome(
        storageStatusAnswer(544, 'resumable upload: response code: 544, response text: {…}'),
      ),
    ).toMatchObject(busy)
    // Any other 500 stays the server's fault.
    expect(
      classifyStandardUpload({
        error: { status: 500, statusCode: '500', message: 'Internal Server Error' },
      }),
    ).toMatchObject({ kind: 'server-error' })
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

// tus-js-client's browser build (the one the site bundles); its Node build takes no Blob.
vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js' as string))

/**
 * A TUS server as Storage runs one, insert only: a creation for a name already stored answers 409;
 * the last PATCH records the object, unless `crash` says the server dies between its last byte
 * and the object's row (`'before-row'`) or between the row and its answer (`'after-row'`).
 */
function tusServer() {
  const stored = new Set<string>()
  const uploads = new Map<string, { object: string; length: number; offset: number }>()
  const requests: { method: string; url: string; bytes: number }[] = []
  const server = { stored, requests, crash: null as null | 'before-row' | 'after-row' }
  const respond = (status: number, headers: Record<string, string> = {}): HttpResponse => ({
    getStatus: () => status,
    getHeader: (name) => headers[name],
    getBody: () => '',
    getUnderlyingObject: () => null,
  })
  const receive = (url: string, body: Blob | null) => {
    const upload = uploads.get(url)!
    upload.offset += body?.size ?? 0
    if (upload.offset < upload.length) return respond(204, { 'Upload-Offset': `${upload.offset}` })
    if (server.crash === 'before-row') {
      server.crash = null
      throw new TypeError('Failed to fetch')
    }
    stored.add(upload.object)
    if (server.crash === 'after-row') {
      server.crash = null
      throw new TypeError('Failed to fetch')
    }
    return respond(204, { 'Upload-Offset': `${upload.offset}` })
  }
  const stack: HttpStack = {
    getName: () => 'test',
    createRequest(method, url) {
      const headers: Record<string, string> = {}
      return {
        getMethod: () => method,
        getURL: () => url,
        setHeader: (name, value) => void (headers[name] = value),
        getHeader: (name) => headers[name],
        setProgressHandler: () => {},
        abort: async () => {},
        getUnderlyingObject: () => null,
        async send(body: Blob | null = null) {
          requests.push({ method, url, bytes: body?.size ?? 0 })
          if (method === 'HEAD') {
            const upload = uploads.get(url)!
            return respond(200, {
              'Upload-Offset': `${upload.offset}`,
              'Upload-Length': `${upload.length}`,
            })
          }
          if (method === 'PATCH') return receive(url, body)
          const object = atob(/objectName ([^,]+)/.exec(headers['Upload-Metadata'] ?? '')![1]!)
          if (stored.has(object)) return respond(409)
          const location = `http://storage.test/upload/${uploads.size + 1}`
          uploads.set(location, { object, length: Number(headers['Upload-Length']), offset: 0 })
          return body
            ? receive(location, body).getStatus() === 204
              ? respond(201, {
                  Location: location,
                  'Upload-Offset': `${uploads.get(location)!.offset}`,
                })
              : respond(500)
            : respond(201, { Location: location })
        },
      }
    },
  }
  return { server, stack }
}

describe('a large file (resumable), and what its success rests on', () => {
  const large = () => ({
    object: 'a/b/large',
    ciphertext: new Blob([new Uint8Array(RESUMABLE_THRESHOLD_BYTES + 1)]),
  })
  const targetWith = (stack: HttpStack): UploadTarget => ({
    storage: { from: () => ({ upload: () => Promise.reject(new Error('not a standard upload')) }) },
    url: 'http://storage.test',
    apikey: 'key',
    bearer: 'token',
    bucket: 'contact-attachments',
    resumeKeyPrefix: null,
    httpStack: stack,
  })

  it('the server confirming the last bytes is enough: one creation, no check', async () => {
    const { server, stack } = tusServer()
    expect(await uploadFiles([large()], targetWith(stack))).toEqual({ kind: 'delivered' })
    expect(server.stored.has('a/b/large')).toBe(true)
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'PATCH'])
  })

  it('a server that died between the last byte and the object: told "complete" by a HEAD, the file is checked and sent again', async () => {
    const { server, stack } = tusServer()
    server.crash = 'before-row'
    expect(await uploadFiles([large()], targetWith(stack))).toEqual({ kind: 'delivered' })
    expect(server.stored.has('a/b/large')).toBe(true)
    const creations = server.requests.filter((request) => request.method === 'POST')
    // The upload (its first chunk in the creation), then the check, which carries nothing.
    expect(creations.map((request) => request.bytes)).toEqual([RESUMABLE_THRESHOLD_BYTES, 0])
    expect(server.requests.at(-1)).toMatchObject({ method: 'PATCH', bytes: 1 })
  })

  it('an object stored before the answer was lost: the check finds it (409) and sends nothing again', async () => {
    const { server, stack } = tusServer()
    server.crash = 'after-row'
    expect(await uploadFiles([large()], targetWith(stack))).toEqual({ kind: 'delivered' })
    expect(server.requests.map((request) => request.method)).toEqual([
      'POST',
      'PATCH',
      'HEAD',
      'POST',
    ])
    expect(server.requests.at(-1)).toMatchObject({ bytes: 0 })
  })
})
