// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createAlertForwarder, type AlertForwarderOptions } from './staff-alerts'

/** The forwarder against a local HTTP receiver standing in for the staff-alert webhook. */

type Received = { headers: IncomingMessage['headers']; body: string }

let server: Server | null = null
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)))
  server = null
})

async function receiver(statuses: number[]): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = []
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      response
        .writeHead(statuses[received.length - 1] ?? 200)
        .end('receiver says: secret internals')
    })
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alert`, received }
}

const PAYLOAD = JSON.stringify({
  event: 'contact.new',
  ref: '1a2b3c4d',
  name: 'Ada',
  sealed: '-----BEGIN AGE',
})

/** Forwards each of `payloads` in turn (PAYLOAD once unless given); returns the lines logged. */
async function forwarded(
  options: Omit<AlertForwarderOptions, 'log'>,
  payloads = [PAYLOAD],
): Promise<string[]> {
  const lines: string[] = []
  const forward = createAlertForwarder({ ...options, log: (line) => lines.push(line) })
  for (const payload of payloads) await forward(payload)
  return lines
}

describe('the staff alert forwarder', () => {
  it('posts only {event, ref} with the shared secret, and logs event and ref only', async () => {
    const { url, received } = await receiver([200])
    const lines = await forwarded({ webhookUrl: url, secret: 's3cret' })
    expect(received).toHaveLength(1)
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ event: 'contact.new', ref: '1a2b3c4d' })
    expect(received[0]?.headers['x-staff-alert-secret']).toBe('s3cret')
    expect(received[0]?.headers['content-type']).toBe('application/json')
    expect(lines).toEqual(['staff alert contact.new 1a2b3c4d forwarded'])
  })

  it('retries 5xx answers with backoff, a bounded number of times, never logging what came back', async () => {
    const { url, received } = await receiver([503, 502, 500, 500, 200])
    const lines = await forwarded({ webhookUrl: url, attempts: 4, retryDelayMs: 5 })
    expect(received).toHaveLength(4)
    expect(received[0]?.headers['x-staff-alert-secret']).toBeUndefined()
    expect(lines).toEqual(['staff alert contact.new 1a2b3c4d not forwarded (HTTP 500)'])
  })

  it('stops at a 4xx answer and succeeds after a transient 5xx', async () => {
    const refused = await receiver([401])
    const refusedLines = await forwarded({ webhookUrl: refused.url, retryDelayMs: 5 })
    expect(refused.received).toHaveLength(1)
    await new Promise((resolve) => server?.close(resolve))
    const flaky = await receiver([503, 200])
    const flakyLines = await forwarded({ webhookUrl: flaky.url, retryDelayMs: 5 })
    expect(flaky.received).toHaveLength(2)
    expect([...refusedLines, ...flakyLines]).toEqual([
      'staff alert contact.new 1a2b3c4d not forwarded (HTTP 401)',
      'staff alert contact.new 1a2b3c4d forwarded',
    ])
  })

  it('prints one line when no webhook is set, and ignores payloads that are not alerts', async () => {
    const lines = await forwarded({}, [
      PAYLOAD,
      '{"event":"contact.new","ref":"<script>"}',
      'Ada wrote: hello',
    ])
    expect(lines).toEqual([
      'new inquiry 1a2b3c4d',
      'new inquiry',
      'staff alert ignored: not an {event, ref} payload',
    ])
    expect(lines.join('\n')).not.toMatch(/Ada|AGE|script|hello/)
  })

  it('links the inquiry in the staff inbox by its reference when the inbox address is known', async () => {
    const lines = await forwarded({ inboxUrl: 'http://127.0.0.1:4174/' }, [
      PAYLOAD,
      '{"event":"contact.limit","ref":null}',
      '{"event":"contact.message","ref":"1a2b3c4d"}',
    ])
    expect(lines).toEqual([
      'new inquiry 1a2b3c4d http://127.0.0.1:4174/inquiries/1a2b3c4d',
      'submission limit reached',
      'new message 1a2b3c4d http://127.0.0.1:4174/inquiries/1a2b3c4d',
    ])
  })
})
