// @vitest-environment node
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useMigratedDatabase } from '../../local/test-support'
import { SECRET_HEADER } from '../_shared/staff-alert-contract.ts'

/**
 * The Edge Function itself (index.ts), in its real runtime: Deno, from the npm registry's `deno`
 * package, serving on a free port (DENO_SERVE_ADDRESS). The database builds the payload
 * (private.staff_alert_payload on PostgreSQL 15), the function is posted it with the shared
 * secret, and the Telegram call reaches a local receiver standing in for api.telegram.org.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const DENO = `${ROOT}node_modules/.bin/deno`
const FUNCTION = fileURLToPath(new URL('./index.ts', import.meta.url))

const database = useMigratedDatabase()
let telegram: Server
let posted: { path: string; body: Record<string, unknown> }[] = []
let deno: ChildProcess
let functionUrl: string

beforeAll(async () => {
  telegram = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      posted.push({ path: request.url ?? '', body: JSON.parse(body) as Record<string, unknown> })
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  telegram.listen(0, '127.0.0.1')
  await once(telegram, 'listening')
  const address = telegram.address()
  const telegramBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

  deno = spawn(DENO, ['run', '--no-prompt', '--allow-net', '--allow-env', FUNCTION], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      DENO_DIR: `${ROOT}node_modules/.cache/deno`,
      DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0',
      STAFF_ALERT_SECRET: 'shared-secret',
      TELEGRAM_BOT_TOKEN: '123:test-token',
      TELEGRAM_CHAT_ID: '-1001',
      TELEGRAM_API_BASE: telegramBase,
      INBOX_URL: 'https://inbox.example.com',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  // Deno prints the address it listens on (to stderr) once the function is ready.
  const lines = createInterface({ input: deno.stderr as NodeJS.ReadableStream })
  const errors: string[] = []
  functionUrl = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const url = /Listening on (http:\/\/\S+?)\/?$/.exec(line)?.[1]
      if (url) resolve(url)
      else errors.push(line)
    })
    deno.once('exit', (code) => reject(new Error(`deno exited with ${code}: ${errors.join('')}`)))
  })
}, 120_000)

afterAll(async () => {
  if (deno && deno.exitCode === null) {
    deno.kill()
    await once(deno, 'exit')
  }
  telegram?.close()
})

const post = (body: string, secret: string) =>
  fetch(`${functionUrl}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret },
    body,
  })

describe('the staff-alert Edge Function under Deno', () => {
  it('forwards the database’s new-inquiry payload to Telegram as one content-free line', async () => {
    posted = []
    const [row] = await database.query<{ payload: string }>(
      `select private.staff_alert_payload('contact.new', '1a2b3c4d-0000-4000-8000-000000000001') as payload`,
    )
    const response = await post(row?.payload ?? '', 'shared-secret')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
    expect(posted).toHaveLength(1)
    expect(posted[0]?.path).toBe('/bot123:test-token/sendMessage')
    expect(posted[0]?.body).toMatchObject({ chat_id: '-1001' })
    expect(String(posted[0]?.body.text)).toMatch(
      /^New secure inquiry 1a2b3c4d, answer by .+ UTC\nhttps:\/\/inbox\.example\.com\/inquiries\/1a2b3c4d$/,
    )
  })

  it('refuses a caller without the shared secret, and Telegram hears nothing', async () => {
    posted = []
    const response = await post('{"event":"contact.new","ref":"1a2b3c4d"}', 'guess')
    expect(response.status).toBe(401)
    expect(posted).toEqual([])
  })
})
