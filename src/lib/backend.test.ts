// The real sender against the real supabase-js client, with only `fetch` faked: what goes on the
// wire, how long it may take, and what a failure of any kind comes to; and the classification of
// each answer, with most care where a wrong answer would lose a message (a wrong "delivered") or
// park it for good (a wrong "refused").
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SEND_TIMEOUT_MS } from '../shared/api/abort'
import type { Database } from '../shared/database-types'
import { failureMessages, FALLBACK_ERROR_MESSAGE } from '../features/contact/contact-copy'
import { DOCUMENT, MAILBOX_HASH, sealedFor } from '../features/contact/contact-test-fixtures'
import {
  classifyAddAnswer,
  classifyInsertAnswer,
  classifyReadAnswer,
  insertInquiry,
  LIMIT_WINDOW_MS,
} from './backend'

const SUPABASE_URL = 'http://127.0.0.1:54321'
const row = sealedFor(DOCUMENT)
const PKEY_DUPLICATE = 'duplicate key value violates unique constraint "contact_submissions_pkey"'

type Request = { url: string; init: RequestInit }
const wire = vi.hoisted(() => {
  const wire = {
    requests: [] as { url: string; init: RequestInit }[],
    answer: (async () => new Response(null, { status: 201 })) as (
      init: RequestInit,
    ) => Promise<Response>,
    /** lib/supabase as the page has it, but with this file's fetch. */
    client: async () => {
      const { createClient } = await import('@supabase/supabase-js')
      return {
        supabase: createClient<Database>('http://127.0.0.1:54321', 'test-anon-key', {
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
          global: {
            fetch: async (input: RequestInfo | URL, init: RequestInit = {}) => {
              wire.requests.push({ url: String(input), init })
              return wire.answer(init)
            },
          },
        }),
      }
    },
  }
  return wire
})

vi.mock('./supabase', wire.client)

function answerWith(status: number, body?: unknown) {
  wire.answer = async () =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    })
}

afterEach(() => {
  wire.requests = []
  answerWith(201)
  vi.restoreAllMocks()
})

describe('insertInquiry', () => {
  it('inserts exactly the sealed row into contact_submissions, asking for nothing back', async () => {
    answerWith(201)
    expect(await insertInquiry(row)).toEqual({ kind: 'delivered' })

    expect(wire.requests).toHaveLength(1)
    const [{ url, init }] = wire.requests as [Request]
    expect(url).toBe(`${SUPABASE_URL}/rest/v1/contact_submissions`)
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toStrictEqual(row)
    // No `.select()`: anon has no SELECT right, and asking for the row back would be refused.
    expect(new Headers(init.headers).get('Prefer') ?? '').not.toContain('return=representation')
  })

  it('abandons an insert that hangs past the send timeout, and counts it as no answer', async () => {
    // The signal the sender asks for, released by the test instead of a 20 s wait.
    const timeouts: number[] = []
    const expire = new AbortController()
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((milliseconds) => {
      timeouts.push(milliseconds)
      return expire.signal
    })
    wire.answer = (init) =>
      new Promise((_, reject) => {
        init.signal?.addEventListener('abort', () =>
          reject(new DOMException('signal timed out', 'AbortError')),
        )
      })

    const sending = insertInquiry(row)
    await vi.waitFor(() => expect(wire.requests).toHaveLength(1))
    expect(timeouts).toEqual([SEND_TIMEOUT_MS])
    expire.abort()

    const outcome = await sending
    expect(outcome).toMatchObject({ kind: 'no-answer', reason: 'noAnswer' })
    expect(wire.requests[0]?.init.signal?.aborted).toBe(true)
  })

  /** An insert that hangs until its signal aborts, as on a stalled link. */
  function hangUntilAborted() {
    wire.answer = (init) =>
      new Promise((_, reject) => {
        const abort = () => reject(new DOMException('aborted', 'AbortError'))
        if (init.signal?.aborted) return abort()
        init.signal?.addEventListener('abort', abort)
      })
  }

  it("stops the insert when the caller gives up first (the form's deadline), and counts it as no answer", async () => {
    hangUntilAborted()
    const deadline = new AbortController()
    const sending = insertInquiry(row, deadline.signal)
    await vi.waitFor(() => expect(wire.requests).toHaveLength(1))
    expect(wire.requests[0]?.init.signal?.aborted).toBe(false)
    deadline.abort()

    expect(await sending).toMatchObject({ kind: 'no-answer', reason: 'noAnswer' })
    expect(wire.requests[0]?.init.signal?.aborted).toBe(true)
  })

  it('keeps its own send timeout when the caller passes a signal, and heeds one that has already aborted', async () => {
    hangUntilAborted()
    const expire = new AbortController()
    vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => expire.signal)
    const sending = insertInquiry(row, new AbortController().signal)
    await vi.waitFor(() => expect(wire.requests).toHaveLength(1))
    expire.abort()
    expect(await sending).toMatchObject({ kind: 'no-answer', reason: 'noAnswer' })
    expect(wire.requests[0]?.init.signal?.aborted).toBe(true)

    // The real timeout again: only the caller's signal, aborted before the call, can stop this one.
    vi.restoreAllMocks()
    const given = new AbortController()
    given.abort()
    expect(await insertInquiry(row, given.signal)).toMatchObject({
      kind: 'no-answer',
      reason: 'noAnswer',
    })
    expect(wire.requests.every(({ init }) => init.signal?.aborted)).toBe(true)
  })

  it('gives a slow phone connection a fair chance before giving up (at least 10 s, at most a minute)', () => {
    expect(SEND_TIMEOUT_MS).toBeGreaterThanOrEqual(10_000)
    expect(SEND_TIMEOUT_MS).toBeLessThanOrEqual(60_000)
  })

  it('counts a failed fetch (offline, DNS, CORS, reset) as no answer', async () => {
    wire.answer = async () => Promise.reject(new TypeError('Failed to fetch'))
    expect(await insertInquiry(row)).toMatchObject({
      kind: 'no-answer',
      reason: 'noAnswer',
      detail: expect.stringContaining('HTTP 0'),
    })
  })

  it('reads a replayed id as delivered and a plain 500 as a server error, through the real client', async () => {
    answerWith(409, { code: '23505', message: PKEY_DUPLICATE, details: null, hint: null })
    expect(await insertInquiry(row)).toEqual({ kind: 'delivered' })

    answerWith(500, { code: 'XX000', message: 'internal error', details: null, hint: null })
    expect(await insertInquiry(row)).toMatchObject({ kind: 'server-error', reason: 'serverError' })
  })
})

describe('classifyInsertAnswer (what supabase-js resolves with)', () => {
  const pkey = 'duplicate key value violates unique constraint "contact_submissions_pkey"'
  it.each([
    ['no error', { error: null, status: 201 }, 'delivered', undefined],
    [
      'a replayed id (409, 23505 on the primary key)',
      { error: { code: '23505', message: pkey }, status: 409 },
      'delivered',
      undefined,
    ],
    [
      'fetch failed, reset or timed out (status 0)',
      { error: { message: 'AbortError: signal timed out' }, status: 0 },
      'no-answer',
      'noAnswer',
    ],
    [
      'a 200 that is not ours (captive portal HTML)',
      { error: { message: '<html>Login</html>' }, status: 200 },
      'no-answer',
      'noAnswer',
    ],
    [
      'a 200 with an empty body and no error (a proxy)',
      { error: null, status: 200 },
      'no-answer',
      'noAnswer',
    ],
    [
      'a 204 and no error (a misrouted request)',
      { error: null, status: 204 },
      'no-answer',
      'noAnswer',
    ],
    [
      'a 404 answering [] and no error (a paused project)',
      { error: null, status: 404 },
      'no-answer',
      'noAnswer',
    ],
    [
      "Cloudflare's 522 (origin unreachable)",
      { error: { message: '<html>522</html>' }, status: 522 },
      'no-answer',
      'noAnswer',
    ],
    [
      "Cloudflare's 524 (origin too slow)",
      { error: { message: '<html>524</html>' }, status: 524 },
      'no-answer',
      'noAnswer',
    ],
    ['408', { error: { message: 'Request Timeout' }, status: 408 }, 'no-answer', 'noAnswer'],
    [
      '429',
      { error: { code: 'rate_limited', message: '{"code":"…"}' }, status: 429 },
      'no-answer',
      'busy',
    ],
    [
      '502 gateway',
      { error: { message: '<html>Bad Gateway</html>' }, status: 502 },
      'no-answer',
      'noAnswer',
    ],
    [
      '503 gateway',
      { error: { message: '<html>Service Unavailable</html>' }, status: 503 },
      'no-answer',
      'noAnswer',
    ],
    ['504 gateway', { error: { message: '' }, status: 504 }, 'no-answer', 'noAnswer'],
    [
      "a statement timeout (500 57014: anon's 3 s on Supabase, nothing stored)",
      {
        error: { code: '57014', message: 'canceling statement due to statement timeout' },
        status: 500,
      },
      'no-answer',
      'busy',
    ],
    [
      '500 from PostgREST',
      { error: { code: 'XX000', message: 'internal' }, status: 500 },
      'server-error',
      'serverError',
    ],
    ['413', { error: { message: 'Payload Too Large' }, status: 413 }, 'refused', 'tooLarge'],
    [
      'an unknown key_id (23503)',
      { error: { code: '23503', message: 'violates foreign key constraint' }, status: 409 },
      'refused',
      'staleKey',
    ],
    [
      'another unique constraint',
      { error: { code: '23505', message: 'violates unique constraint "x_key"' }, status: 409 },
      'refused',
      'notAccepted',
    ],
    [
      'a check violation',
      {
        error: {
          code: '23514',
          message: 'violates check constraint "contact_submissions_sealed_check"',
        },
        status: 400,
      },
      'refused',
      'notAccepted',
    ],
    [
      'no permission (42501)',
      { error: { code: '42501', message: 'permission denied for table' }, status: 401 },
      'refused',
      'notAccepted',
    ],
    [
      'a missing table (PGRST205)',
      { error: { code: 'PGRST205', message: 'Could not find the table' }, status: 404 },
      'refused',
      'unavailable',
    ],
    [
      'a 4xx without a body (spec §8: "Please try again later.")',
      { error: { message: '' }, status: 400 },
      'refused',
      'fallback',
    ],
  ] as const)('%s', (_name, answer, kind, reason) => {
    const outcome = classifyInsertAnswer(answer)
    expect(outcome.kind).toBe(kind)
    if (outcome.kind !== 'delivered') {
      expect(outcome.reason).toBe(reason)
      expect(outcome.detail).toContain(`HTTP ${answer.status}`)
    }
  })

  it('puts no markup, SQL or constraint name in any sentence a visitor can see', () => {
    for (const sentence of Object.values(failureMessages)) {
      expect(sentence).not.toMatch(/<|>|constraint|violates|contact_submissions|23\d{3}|PGRST/)
    }
    expect(failureMessages.fallback).toBe(FALLBACK_ERROR_MESSAGE)
    expect(FALLBACK_ERROR_MESSAGE).toBe('Please try again later.')
  })
})

describe('classifyInsertAnswer: "already delivered" needs all three signs', () => {
  // Only a 409 with 23505 on the primary key proves that this very row is stored; any one sign
  // alone could be another refusal (or a proxy's page quoting the name), and reading it as
  // delivered would drop the visitor's message without a word.
  it.each([
    [
      'the primary key named in a 400',
      { status: 400, error: { code: '23505', message: PKEY_DUPLICATE } },
    ],
    [
      'the primary key named, another code',
      { status: 409, error: { code: '23503', message: PKEY_DUPLICATE } },
    ],
    ['the primary key named, no code at all', { status: 409, error: { message: PKEY_DUPLICATE } }],
    [
      '409 and 23505 without the primary key',
      { status: 409, error: { code: '23505', message: 'duplicate key value' } },
    ],
    ['409 and 23505 with no message', { status: 409, error: { code: '23505' } }],
    [
      'the bare name without quotes',
      { status: 409, error: { code: '23505', message: 'contact_submissions_pkey' } },
    ],
  ])('%s is not delivered', (_name, answer) => {
    expect(classifyInsertAnswer(answer).kind).not.toBe('delivered')
  })

  it('a 500 naming the primary key is still a server error, retried rather than dropped', () => {
    expect(
      classifyInsertAnswer({ status: 500, error: { code: '23505', message: PKEY_DUPLICATE } }).kind,
    ).toBe('server-error')
  })
})

describe('classifyInsertAnswer: retry or refuse', () => {
  it.each([
    // 5xx other than the gateways' is the backend's own failure: the outbox retries it.
    [500, 'server-error'],
    [501, 'server-error'],
    [599, 'server-error'],
    // A redirect reaching the client is not an answer from PostgREST, and not a refusal either.
    [300, 'refused'],
    [399, 'refused'],
    [299, 'no-answer'],
    [1, 'no-answer'],
  ] as const)('HTTP %i with an error body is %s', (status, kind) => {
    expect(classifyInsertAnswer({ status, error: { message: 'x' } }).kind).toBe(kind)
  })

  it.each([
    ['413 Payload Too Large', { status: 413, error: { message: '' } }, 'tooLarge'],
    [
      '54000 (value too long) under another status',
      { status: 400, error: { code: '54000', message: 'value too long' } },
      'tooLarge',
    ],
    [
      'a foreign key failure (23503)',
      { status: 409, error: { code: '23503', message: 'insert violates foreign key' } },
      'staleKey',
    ],
    [
      'the trigger naming key_id',
      { status: 400, error: { code: 'P0001', message: 'unknown or retired key_id' } },
      'staleKey',
    ],
    [
      'the trigger naming submission_keys',
      { status: 400, error: { code: 'P0001', message: 'not in private.submission_keys' } },
      'staleKey',
    ],
    ['404 without a code', { status: 404, error: { message: 'Not Found' } }, 'unavailable'],
    ['405 Method Not Allowed', { status: 405, error: { message: '' } }, 'unavailable'],
    [
      'PGRST205 under another status',
      { status: 400, error: { code: 'PGRST205', message: 'Could not find the table' } },
      'unavailable',
    ],
    ['a 403 without a body', { status: 403, error: {} }, 'fallback'],
    [
      'a 400 with a code but no words',
      { status: 400, error: { code: '22P02', message: '' } },
      'notAccepted',
    ],
  ] as const)('%s is refused for a reason the visitor can act on', (_name, answer, reason) => {
    expect(classifyInsertAnswer(answer)).toMatchObject({ kind: 'refused', reason })
  })

  it('a 429 is not a refusal: the visitor is told the server is busy and the row waits', () => {
    expect(
      classifyInsertAnswer({ status: 429, error: { code: 'PGRST', message: 'too many' } }),
    ).toMatchObject({
      kind: 'no-answer',
      reason: 'busy',
    })
  })
})

describe('classifyInsertAnswer: the detail for the console', () => {
  it('names the status, the code when there is one, and the server’s words trimmed', () => {
    expect(
      classifyInsertAnswer({ status: 409, error: { code: '23503', message: '  fk failed \n' } }),
    ).toMatchObject({
      detail: 'HTTP 409 23503: fk failed',
    })
    expect(classifyInsertAnswer({ status: 400, error: { message: 'bad' } })).toMatchObject({
      detail: 'HTTP 400: bad',
    })
    expect(classifyInsertAnswer({ status: 400, error: {} })).toMatchObject({ detail: 'HTTP 400: ' })
  })

  it('keeps a long server answer (an HTML error page) to its first 300 characters', () => {
    const page = `<html>${'x'.repeat(1_000)}</html>`
    const outcome = classifyInsertAnswer({ status: 400, error: { message: page } })
    expect(outcome.kind !== 'delivered' && outcome.detail).toBe(`HTTP 400: ${page.slice(0, 300)}`)
  })
})

describe('what the visitor reads', () => {
  it('every reason maps to a full sentence, not a code or a blank', () => {
    for (const sentence of Object.values(failureMessages)) {
      expect(sentence.trim().length).toBeGreaterThan(15)
      expect(sentence).toMatch(/^[A-Z][^\n]*[.!]$/)
      expect(sentence.split(' ').length).toBeGreaterThanOrEqual(4)
    }
  })

  it('tells the reasons apart: no two failures read the same', () => {
    const sentences = Object.entries(failureMessages)
      .filter(([reason]) => reason !== 'fallback')
      .map(([, sentence]) => sentence)
    expect(new Set(sentences).size).toBe(sentences.length)
  })
})

describe('a queued inquiry with sealed files (the outbox’s sender)', () => {
  afterEach(() => {
    wire.requests = []
    wire.answer = async () => new Response(null, { status: 201 })
  })
  const object = `${row.id}/3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3d`
  const ciphertext = new Blob([new Uint8Array([0x61, 0x67, 0x65])], {
    type: 'application/octet-stream',
  })
  const item = {
    kind: 'inquiry' as const,
    row: { ...row, mailbox_hash: MAILBOX_HASH },
    attachments: [{ object, ciphertext }],
  }

  it('uploads each file to the private bucket, insert-only and typed octet-stream, then the row', async () => {
    wire.answer = async (init) =>
      init.body instanceof FormData
        ? new Response(JSON.stringify({ Key: `contact-attachments/${object}` }), { status: 200 })
        : new Response(null, { status: 201 })
    const { sendQueuedWith } = await import('../features/outbox/send-queued')
    const sendQueued = sendQueuedWith(await import('./backend'))
    expect(await sendQueued(item)).toEqual({ kind: 'delivered' })
    const [reserve, upload, insert] = wire.requests
    expect(reserve?.url).toBe(`${SUPABASE_URL}/rest/v1/rpc/reserve_attachment`)
    expect(JSON.parse(String(reserve?.init.body))).toEqual({ object_name: object, byte_count: 3 })
    expect(upload?.url).toBe(`${SUPABASE_URL}/storage/v1/object/contact-attachments/${object}`)
    expect(new Headers(upload?.init.headers).get('x-upsert')).toBe('false')
    const part = (upload?.init.body as FormData).get('') as Blob
    expect(part.type).toBe('application/octet-stream')
    expect(part.size).toBe(3)
    expect(insert?.url).toBe(`${SUPABASE_URL}/rest/v1/contact_submissions`)
  })

  it('counts an object already stored (Storage’s 400 with statusCode 409) as uploaded', async () => {
    wire.answer = async (init) =>
      init.body instanceof FormData
        ? new Response(
            JSON.stringify({ statusCode: '409', error: 'Duplicate', message: 'exists' }),
            { status: 400, headers: { 'content-type': 'application/json' } },
          )
        : new Response(null, { status: 201 })
    const { sendQueuedWith } = await import('../features/outbox/send-queued')
    const sendQueued = sendQueuedWith(await import('./backend'))
    expect(await sendQueued(item)).toEqual({ kind: 'delivered' })
    expect(wire.requests).toHaveLength(3)
  })

  it('uploads nothing the database would not count: a refused announcement stops the file', async () => {
    const { sendQueuedWith } = await import('../features/outbox/send-queued')
    const sendQueued = sendQueuedWith(await import('./backend'))
    answerWith(429, { code: 'attachment_network_limit', message: 'Too many files.' })
    expect(await sendQueued(item)).toMatchObject({ kind: 'no-answer', reason: 'busy' })
    answerWith(403, { code: 'attachment_too_many', message: 'Too many files.' })
    expect(await sendQueued(item)).toMatchObject({ kind: 'refused', reason: 'fileRefused' })
    expect(wire.requests.map(({ url }) => url)).toEqual([
      `${SUPABASE_URL}/rest/v1/rpc/reserve_attachment`,
      `${SUPABASE_URL}/rest/v1/rpc/reserve_attachment`,
    ])
  })

  it('a statement timeout on the upload (Storage’s 544) or on the insert (500 57014) is busy: kept for a retry', async () => {
    const { sendQueuedWith } = await import('../features/outbox/send-queued')
    const sendQueued = sendQueuedWith(await import('./backend'))
    // The reservation is taken (204), then Storage's upload meets the timeout.
    wire.answer = async (init) =>
      init.body instanceof FormData
        ? new Response(
            JSON.stringify({
              statusCode: '544',
              code: 'DatabaseTimeout',
              error: 'DatabaseTimeout',
              message: 'The connection to the database timed out',
            }),
            { status: 544, headers: { 'content-type': 'application/json' } },
          )
        : new Response(null, { status: 204 })
    expect(await sendQueued(item)).toMatchObject({ kind: 'no-answer', reason: 'busy' })
    wire.requests = []
    wire.answer = async (init) =>
      init.body instanceof FormData
        ? new Response(JSON.stringify({ Key: `contact-attachments/${object}` }), { status: 200 })
        : String(init.body).includes('object_name')
          ? new Response(null, { status: 204 })
          : new Response(
              JSON.stringify({
                code: '57014',
                message: 'canceling statement due to statement timeout',
              }),
              { status: 500, headers: { 'content-type': 'application/json' } },
            )
    expect(await sendQueued(item)).toMatchObject({ kind: 'no-answer', reason: 'busy' })
    expect(wire.requests).toHaveLength(3)
  })

  it('sends no row while a file is not stored: no answer keeps it queued, a refusal says so', async () => {
    const { sendQueuedWith } = await import('../features/outbox/send-queued')
    const sendQueued = sendQueuedWith(await import('./backend'))
    wire.answer = async () => Promise.reject(new TypeError('Failed to fetch'))
    expect(await sendQueued(item)).toMatchObject({ kind: 'no-answer' })
    expect(wire.requests).toHaveLength(1)
    wire.requests = []
    wire.answer = async (init) =>
      init.body instanceof FormData
        ? new Response(
            JSON.stringify({ statusCode: '403', error: 'Unauthorized', message: 'rls' }),
            {
              status: 400,
              headers: { 'content-type': 'application/json' },
            },
          )
        : new Response(null, { status: 204 })
    expect(await sendQueued(item)).toMatchObject({ kind: 'refused', reason: 'fileRefused' })
    expect(wire.requests).toHaveLength(2)
  })
})

const NOW = Date.parse('2026-11-25T12:00:00Z')
const ID = '3b241101-e2bb-4255-8caf-4136c566a962'
const thread = {
  reference: ID.slice(0, 8),
  status: 'received',
  delete_by: null,
  messages: [{ id: ID, direction: 'visitor', sealed: 'armor', created_at: '2026-11-25T11:00:00Z' }],
}
const refusal = (status: number, code: string, message = 'words') => ({
  status,
  data: null,
  error: { code, message },
})

describe('classifyReadAnswer (read_thread)', () => {
  it('a thread, or no match (null: the database counted a guess)', () => {
    expect(classifyReadAnswer({ status: 200, data: thread, error: null }, NOW)).toEqual({
      kind: 'thread',
      thread,
    })
    expect(classifyReadAnswer({ status: 200, data: null, error: null }, NOW)).toEqual({
      kind: 'no-match',
    })
  })

  it('429: guessing from this network, or reading this mailbox too often, with when to try again', () => {
    expect(classifyReadAnswer(refusal(429, 'thread_network_limit'), NOW)).toEqual({
      kind: 'limited',
      scope: 'network',
      retryAt: NOW + LIMIT_WINDOW_MS.thread_network_limit,
    })
    expect(classifyReadAnswer(refusal(429, 'thread_read_limit'), NOW)).toEqual({
      kind: 'limited',
      scope: 'mailbox',
      retryAt: NOW + LIMIT_WINDOW_MS.thread_read_limit,
    })
  })

  it('an answer that is not the function’s (a portal, a proxy) is no answer, never a thread', () => {
    for (const data of [[], '<html>', { reference: 'x' }, { ...thread, messages: [] }]) {
      expect(classifyReadAnswer({ status: 200, data, error: null }, NOW).kind).toBe('no-answer')
    }
    expect(classifyReadAnswer(refusal(0, '', 'TypeError: Failed to fetch'), NOW).kind).toBe(
      'no-answer',
    )
    expect(classifyReadAnswer(refusal(503, ''), NOW).kind).toBe('no-answer')
  })

  it('a malformed token or a server error fails, with the details for the console only', () => {
    const failed = classifyReadAnswer(refusal(400, 'mailbox_token_invalid', 'bad token'), NOW)
    expect(failed).toMatchObject({ kind: 'failed' })
    expect(classifyReadAnswer(refusal(500, 'XX000'), NOW).kind).toBe('failed')
  })

  it('a statement timeout (500 57014) is busy, to be tried again, not a failure', () => {
    const timedOut = refusal(500, '57014', 'canceling statement due to statement timeout')
    expect(classifyReadAnswer(timedOut, NOW)).toMatchObject({
      kind: 'busy',
      detail: expect.stringContaining('57014'),
    })
  })
})

describe('classifyAddAnswer (add_to_thread)', () => {
  it('stored, or already stored under its id (a replay answers 409 23505): delivered', () => {
    expect(
      classifyAddAnswer({ status: 200, data: { id: ID, created_at: 'x' }, error: null }),
    ).toEqual({ kind: 'delivered' })
    expect(classifyAddAnswer(refusal(409, '23505', 'duplicate key'))).toEqual({ kind: 'delivered' })
  })

  it('a closed or unknown conversation, or a bad token, is refused with its sentence', () => {
    expect(classifyAddAnswer(refusal(409, 'thread_closed'))).toMatchObject({
      kind: 'refused',
      reason: 'threadClosed',
    })
    expect(classifyAddAnswer(refusal(404, 'thread_not_found'))).toMatchObject({
      kind: 'refused',
      reason: 'threadNotFound',
    })
    expect(classifyAddAnswer(refusal(400, 'mailbox_token_invalid'))).toMatchObject({
      kind: 'refused',
      reason: 'receiptInvalid',
    })
    expect(classifyAddAnswer(refusal(400, '23514', 'check constraint'))).toMatchObject({
      kind: 'refused',
      reason: 'notAccepted',
    })
  })

  it('no answer (offline, gateways, 429, a 200 without the function’s answer) is queued and retried', () => {
    for (const answer of [
      refusal(0, ''),
      refusal(502, ''),
      refusal(429, 'thread_write_limit'),
      { status: 200, data: null, error: null },
    ]) {
      expect(classifyAddAnswer(answer).kind).toBe('no-answer')
    }
    expect(classifyAddAnswer(refusal(500, 'XX000')).kind).toBe('server-error')
  })

  it('a statement timeout (500 57014) is busy: queued and retried, never refused', () => {
    const timedOut = refusal(500, '57014', 'canceling statement due to statement timeout')
    expect(classifyAddAnswer(timedOut)).toMatchObject({ kind: 'no-answer', reason: 'busy' })
  })
})
