// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { handleStaffAlert, SECRET_HEADER, type StaffAlertEnv } from './handler'

/**
 * The Edge Function's handler under Node, against a local HTTP server standing in for Telegram's
 * Bot API (TELEGRAM_API_BASE points at it). The real fetch is used; only the clock, the sleep
 * between retries and the log are replaced.
 */

const SECRET = 'test-secret-0123456789abcdef'
const TOKEN = '123456:TEST-TOKEN-abcdef'
const MARKER = 'ZQ-ALERT-MARKER'
const NOW = new Date('2026-11-22T14:05:30Z')

type Received = { method: string; path: string; body: unknown }
let telegram: Server
let base: string
let received: Received[] = []
/** Status codes the stand-in answers with, in turn; 200 once they run out. */
let script: number[] = []
let logs: string[] = []
let sleeps: number[] = []

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

beforeAll(async () => {
  telegram = createServer((request, response) => {
    void readBody(request).then((text) => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        body: JSON.parse(text),
      })
      const status = script.shift() ?? 200
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(
        status === 200
          ? JSON.stringify({ ok: true, result: { message_id: 1, text: 'echo' } })
          : JSON.stringify({ ok: false, error_code: status, description: 'stand-in failure' }),
      )
    })
  })
  await new Promise<void>((resolve) => telegram.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(telegram.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => telegram.close(resolve))
})

afterEach(() => {
  // Whatever a test did, no log line carried a secret, the token or anything but event and ref.
  const all = logs.join('\n')
  expect(all).not.toContain(SECRET)
  expect(all).not.toContain(TOKEN)
  expect(all).not.toContain(MARKER)
  expect(all).not.toContain('answer by')
  received = []
  script = []
  logs = []
  sleeps = []
})

const env = (): StaffAlertEnv => ({
  STAFF_ALERT_SECRET: SECRET,
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_CHAT_ID: '-1001234567890',
  TELEGRAM_API_BASE: `${base}/`,
})

function post(body: string, secret: string | null = SECRET, method = 'POST'): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (secret !== null) headers[SECRET_HEADER] = secret
  return new Request('http://127.0.0.1/functions/v1/staff-alert', {
    method,
    headers,
    ...(method === 'POST' ? { body } : {}),
  })
}

function handle(request: Request, overrides: StaffAlertEnv = env()) {
  return handleStaffAlert(request, overrides, {
    now: () => NOW,
    log: (line) => logs.push(line),
    sleep: async (ms) => {
      sleeps.push(ms)
    },
  })
}

describe('staff-alert handler', () => {
  it('posts "New secure inquiry <ref>, answer by <time> UTC" to the chat, protected', async () => {
    const response = await handle(post('{"event":"contact.new","ref":"1a2b3c4d"}'))
    expect(response.status).toBe(200)
    expect(received).toEqual([
      {
        method: 'POST',
        path: `/bot${TOKEN}/sendMessage`,
        body: {
          chat_id: '-1001234567890',
          text: 'New secure inquiry 1a2b3c4d, answer by 2026-11-23 14:05 UTC',
          protect_content: true,
        },
      },
    ])
    expect(logs).toEqual(['staff-alert: sent contact.new 1a2b3c4d (attempt 1)'])
  })

  it('links the inquiry in the staff inbox by its reference when INBOX_URL is set', async () => {
    const withInbox = { ...env(), INBOX_URL: 'https://inbox.example.com/' }
    await handle(post('{"event":"contact.new","ref":"1a2b3c4d"}'), withInbox)
    await handle(post('{"event":"contact.overdue","ref":"1a2b3c4d"}'), withInbox)
    await handle(post('{"event":"contact.limit","ref":null}'), withInbox)
    await handle(post('{"event":"contact.message","ref":"1a2b3c4d"}'), withInbox)
    const texts = received.map((request) => (request.body as { text: string }).text)
    expect(texts[0]).toBe(
      'New secure inquiry 1a2b3c4d, answer by 2026-11-23 14:05 UTC\nhttps://inbox.example.com/inquiries/1a2b3c4d',
    )
    expect(texts[1]).toMatch(
      /24-hour promise\.\nhttps:\/\/inbox\.example\.com\/inquiries\/1a2b3c4d$/,
    )
    // No reference, no link.
    expect(texts[2]).not.toContain('inbox.example.com')
    expect(texts[3]).toBe(
      'New message on secure inquiry 1a2b3c4d: the visitor wrote in the sealed thread.\nhttps://inbox.example.com/inquiries/1a2b3c4d',
    )
  })

  it('words the overdue and limit alerts', async () => {
    await handle(post('{"event":"contact.overdue","ref":"1a2b3c4d"}'))
    await handle(post('{"ref":null,"event":"contact.limit"}'))
    expect(received.map((request) => (request.body as { text: string }).text)).toEqual([
      'Secure inquiry 1a2b3c4d is still unanswered after 20 hours: answer within 4 hours to keep the 24-hour promise.',
      'The secure contact form reached its submission limit: new inquiries are refused until it resets. Check for abuse.',
    ])
  })

  it('retries when Telegram answers 5xx, a bounded number of times', async () => {
    script = [500, 502]
    const recovered = await handle(post('{"event":"contact.new","ref":"1a2b3c4d"}'))
    expect(recovered.status).toBe(200)
    expect(received).toHaveLength(3)
    expect(sleeps).toEqual([500, 1000])

    received = []
    sleeps = []
    script = [503, 503, 503, 503]
    const failed = await handle(post('{"event":"contact.new","ref":"1a2b3c4d"}'))
    expect(failed.status).toBe(502)
    expect(received).toHaveLength(3)
    expect(logs.at(-1)).toBe(
      'staff-alert: Telegram failed for contact.new 1a2b3c4d: HTTP 503 (attempt 3 of 3)',
    )
  })

  it('does not retry a request Telegram refuses (4xx)', async () => {
    script = [400]
    const response = await handle(post('{"event":"contact.new","ref":"1a2b3c4d"}'))
    expect(response.status).toBe(502)
    expect(received).toHaveLength(1)
    expect(sleeps).toEqual([])
  })

  it('retries when Telegram cannot be reached', async () => {
    const response = await handle(post('{"event":"contact.new","ref":"1a2b3c4d"}'), {
      ...env(),
      TELEGRAM_API_BASE: 'http://127.0.0.1:9',
    })
    expect(response.status).toBe(502)
    expect(sleeps).toEqual([500, 1000])
  })

  it('refuses a missing or wrong secret without calling Telegram', async () => {
    const body = '{"event":"contact.new","ref":"1a2b3c4d"}'
    expect((await handle(post(body, null))).status).toBe(401)
    expect((await handle(post(body, `${SECRET}x`))).status).toBe(401)
    expect((await handle(post(body, SECRET.slice(0, -1)))).status).toBe(401)
    expect(received).toEqual([])
  })

  it.each([
    ['not JSON', `${MARKER} hello`],
    ['an array', `["${MARKER}"]`],
    ['an extra field', `{"event":"contact.new","ref":"1a2b3c4d","name":"${MARKER}"}`],
    ['an unknown event', `{"event":"${MARKER}","ref":"1a2b3c4d"}`],
    ['a ref that is not 8 hex characters', `{"event":"contact.new","ref":"${MARKER}"}`],
    ['a missing ref on a new inquiry', '{"event":"contact.new","ref":null}'],
    ['a missing ref on a new message', '{"event":"contact.message","ref":null}'],
  ])('refuses %s with 400, without echoing or logging it', async (_, body) => {
    const response = await handle(post(body))
    expect(response.status).toBe(400)
    expect(await response.text()).not.toContain(MARKER)
    expect(received).toEqual([])
  })

  it('refuses an oversized body and other methods', async () => {
    const big = `{"event":"contact.new","ref":"1a2b3c4d","pad":"${MARKER}${'x'.repeat(2000)}"}`
    expect((await handle(post(big))).status).toBe(413)
    const get = await handle(post('', SECRET, 'GET'))
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    expect(received).toEqual([])
  })

  it('fails loudly when not configured', async () => {
    const body = '{"event":"contact.new","ref":"1a2b3c4d"}'
    expect((await handle(post(body), { ...env(), STAFF_ALERT_SECRET: '' })).status).toBe(500)
    expect((await handle(post(body), { ...env(), TELEGRAM_CHAT_ID: undefined })).status).toBe(500)
    expect(logs).toContain('staff-alert: not configured, missing TELEGRAM_CHAT_ID')
    expect(received).toEqual([])
  })
})
