// @vitest-environment node
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { LocalBackend } from '../local-backend'
import {
  clientFor,
  registerTestKey,
  signedInStaff,
  testBackends,
  type TestClient,
} from '../test-support'

/**
 * The sealed conversation (issue 24) as the site and the inbox call it, through the real
 * supabase-js client, on both databases the stand-in runs on: the inquiry inserted with its
 * mailbox hash, the visitor's two functions (their 400, 404, 409 and 429 answers in PostgREST's
 * shapes, Retry-After included), and staff at aal2 reading the thread and adding replies.
 */

type Client = TestClient

/** A mailbox as the receipt derives it: a 32-byte token (hex) and the hash the row stores. */
function newMailbox() {
  const token = randomBytes(32)
  return {
    token: token.toString('hex'),
    hash: `\\x${createHash('sha256').update(token).digest('hex')}`,
  }
}

const alertLines: string[] = []
const backends = testBackends({ log: (line) => alertLines.push(line) })

describe.each(backends)('the sealed conversation on $name', ({ start }) => {
  let started: Awaited<ReturnType<typeof start>>
  let backend: LocalBackend
  let key: Awaited<ReturnType<typeof registerTestKey>>
  let staff: Client
  /** An age armor sealed to the registered key: the database only ever checks its form. */
  let armored: string

  /** An inquiry inserted by anon as the form sends it, with a fresh mailbox. */
  async function newInquiry() {
    const mailbox = newMailbox()
    const row = { id: randomUUID(), key_id: key.keyId, sealed: armored, mailbox_hash: mailbox.hash }
    const inserted = await clientFor(backend, backend.anonKey, '198.18.0.1')
      .from('contact_submissions')
      .insert(row)
    expect(inserted).toMatchObject({ error: null, status: 201 })
    return { ...mailbox, id: row.id, sealed: row.sealed, reference: row.id.slice(0, 8) }
  }

  const visitor = (address = '203.0.113.9') => clientFor(backend, backend.anonKey, address)

  beforeAll(async () => {
    started = await start()
    backend = started.backend
    key = await registerTestKey(backend.db)
    armored = String(key.sealedRow().sealed)
    staff = await signedInStaff(backend, 'ada@example.com')
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
  })
  beforeEach(async () => {
    // The form's own per-network limit is not what these tests are about.
    await backend.db.query('delete from private.contact_rate_events')
    await backend.db.query('delete from private.thread_rate_events')
  })

  it('stores the mailbox hash an anon insert sends as \\x + 64 hex (bytea over REST)', async () => {
    const inquiry = await newInquiry()
    const [stored] = await backend.db.query<{ hash: string }>(
      `select '\\x' || encode(mailbox_hash, 'hex') as hash from public.contact_submissions where id = $1`,
      [inquiry.id],
    )
    expect(stored?.hash).toBe(inquiry.hash)
  })

  it('reads the thread with the right token, null with a wrong one, 400 with a malformed one', async () => {
    const inquiry = await newInquiry()
    const read = await visitor().rpc('read_thread', { mailbox_token: inquiry.token })
    expect(read).toMatchObject({ error: null, status: 200 })
    expect(read.data).toEqual({
      reference: inquiry.reference,
      status: 'received',
      delete_by: null,
      messages: [
        {
          id: inquiry.id,
          direction: 'visitor',
          sealed: inquiry.sealed,
          created_at: expect.any(String),
        },
      ],
    })

    const wrong = await visitor().rpc('read_thread', { mailbox_token: newMailbox().token })
    expect(wrong).toMatchObject({ data: null, error: null, status: 200 })

    const malformed = await visitor().rpc('read_thread', {
      mailbox_token: inquiry.token.toUpperCase(),
    })
    expect(malformed.status).toBe(400)
    expect(malformed.error).toMatchObject({ code: 'mailbox_token_invalid' })
  })

  it('adds the visitor’s message: {id, created_at}; a replay answers 409 / 23505; staff are alerted with the reference only', async () => {
    const inquiry = await newInquiry()
    const message = { mailbox_token: inquiry.token, message_id: randomUUID(), sealed: armored }
    const added = await visitor().rpc('add_to_thread', message)
    expect(added).toMatchObject({ error: null, status: 200 })
    expect(added.data).toEqual({ id: message.message_id, created_at: expect.any(String) })

    const replayed = await visitor().rpc('add_to_thread', message)
    expect(replayed.status).toBe(409)
    expect(replayed.error?.code).toBe('23505')

    const thread = await visitor().rpc('read_thread', { mailbox_token: inquiry.token })
    expect(thread.data?.messages.map((m) => [m.id, m.direction])).toEqual([
      [inquiry.id, 'visitor'],
      [message.message_id, 'visitor'],
    ])
    await expect
      .poll(() => alertLines, { timeout: 5_000 })
      .toContain(`new message ${inquiry.reference}`)
    expect(alertLines.join('\n')).not.toContain(armored.slice(40, 80))
  })

  it('answers a message to an unknown mailbox with 404 thread_not_found, a bad armor with 400', async () => {
    const unknown = await visitor().rpc('add_to_thread', {
      mailbox_token: newMailbox().token,
      message_id: randomUUID(),
      sealed: armored,
    })
    expect(unknown.status).toBe(404)
    expect(unknown.error).toMatchObject({
      code: 'thread_not_found',
      message: 'No conversation has this receipt.',
    })
    const inquiry = await newInquiry()
    const badArmor = await visitor().rpc('add_to_thread', {
      mailbox_token: inquiry.token,
      message_id: randomUUID(),
      sealed: 'hello',
    })
    expect(badArmor.status).toBe(400)
    expect(badArmor.error?.code).toBe('23514')
  })

  it('refuses a message in a closed thread with 409 thread_closed, and shows it closed with delete_by', async () => {
    const inquiry = await newInquiry()
    await backend.db.query(
      `update public.contact_submissions set status = 'declined' where id = $1`,
      [inquiry.id],
    )
    const refused = await visitor().rpc('add_to_thread', {
      mailbox_token: inquiry.token,
      message_id: randomUUID(),
      sealed: armored,
    })
    expect(refused.status).toBe(409)
    expect(refused.error?.code).toBe('thread_closed')
    const thread = await visitor().rpc('read_thread', { mailbox_token: inquiry.token })
    expect(thread.data).toMatchObject({ status: 'closed', delete_by: expect.any(String) })
  })

  it('gives anon no access to the messages table', async () => {
    const read = await visitor().from('contact_messages').select('*')
    expect(read.status).toBe(401)
    expect(read.error?.code).toBe('42501')
  })

  it('lets staff at aal2 read the thread and add replies, which the database stamps', async () => {
    const inquiry = await newInquiry()
    const fromVisitor = randomUUID()
    await visitor().rpc('add_to_thread', {
      mailbox_token: inquiry.token,
      message_id: fromVisitor,
      sealed: armored,
    })

    const reply = { id: randomUUID(), submission_id: inquiry.id, sealed: armored }
    expect(await staff.from('contact_messages').insert(reply)).toMatchObject({
      error: null,
      status: 201,
    })
    const second = { id: randomUUID(), submission_id: inquiry.id, sealed: armored }
    const returned = await staff.from('contact_messages').insert(second).select()
    expect(returned.error).toBeNull()
    expect(returned.status).toBe(201)
    expect(returned.data).toEqual([
      {
        ...second,
        direction: 'agency',
        author_email: 'ada@example.com',
        created_at: expect.any(String),
      },
    ])

    const thread = await staff
      .from('contact_messages')
      .select('*')
      .eq('submission_id', inquiry.id)
      .order('created_at')
    expect(thread.error).toBeNull()
    expect(thread.data?.map((m) => [m.direction, m.author_email])).toEqual([
      ['visitor', null],
      ['agency', 'ada@example.com'],
      ['agency', 'ada@example.com'],
    ])

    const answered = await staff
      .from('contact_submissions')
      .select('status, responded_by, awaiting_reply_since')
      .eq('id', inquiry.id)
      .single()
    expect(answered.data).toEqual({
      status: 'responded',
      responded_by: 'ada@example.com',
      awaiting_reply_since: null,
    })

    const replayed = await staff.from('contact_messages').insert(reply)
    expect(replayed.status).toBe(409)
    expect(replayed.error?.code).toBe('23505')

    const visitorView = await visitor().rpc('read_thread', { mailbox_token: inquiry.token })
    expect(visitorView.data).toMatchObject({ status: 'answered' })
    expect(visitorView.data?.messages.map((m) => m.direction)).toEqual([
      'visitor',
      'visitor',
      'agency',
      'agency',
    ])
  })

  it('refuses a staff reply the client tries to stamp itself (401/403 / 42501)', async () => {
    const inquiry = await newInquiry()
    const forged = await staff.from('contact_messages').insert({
      id: randomUUID(),
      submission_id: inquiry.id,
      sealed: armored,
      direction: 'visitor',
    } as never)
    expect(forged.status).toBe(403)
    expect(forged.error?.code).toBe('42501')
  })

  describe('limits: 429 with Retry-After', () => {
    afterAll(async () => {
      await backend.db.query(
        'update private.thread_limits set miss_limit = 10, read_limit = 60, write_limit = 10',
      )
    })

    it('after too many misses from one network, with Retry-After; never for a right token', async () => {
      await backend.db.query('update private.thread_limits set miss_limit = 2')
      const inquiry = await newInquiry()
      const guesser = visitor('198.51.100.7')
      for (const _ of [1, 2]) {
        expect(
          await guesser.rpc('read_thread', { mailbox_token: newMailbox().token }),
        ).toMatchObject({ data: null, status: 200 })
      }
      const refused = await guesser.rpc('read_thread', { mailbox_token: newMailbox().token })
      expect(refused.status).toBe(429)
      expect(refused.error?.code).toBe('thread_network_limit')
      // The visitor on the same network still opens their own thread.
      const own = await visitor('198.51.100.9').rpc('read_thread', { mailbox_token: inquiry.token })
      expect(own.status).toBe(200)
      expect(own.data).toMatchObject({ reference: inquiry.id.slice(0, 8) })

      const raw = await fetch(`${backend.url}/rest/v1/rpc/read_thread`, {
        method: 'POST',
        headers: {
          apikey: backend.anonKey,
          'Content-Type': 'application/json',
          'CF-Connecting-IP': '198.51.100.8',
        },
        body: JSON.stringify({ mailbox_token: newMailbox().token }),
      })
      expect(raw.status).toBe(429)
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(raw.headers.get('access-control-allow-origin')).toBe('*')

      const elsewhere = await visitor('198.51.101.7').rpc('read_thread', {
        mailbox_token: inquiry.token,
      })
      expect(elsewhere.status).toBe(200)
    })

    it('after too many reads or messages on one mailbox', async () => {
      await backend.db.query('update private.thread_limits set read_limit = 1, write_limit = 1')
      const inquiry = await newInquiry()
      expect((await visitor().rpc('read_thread', { mailbox_token: inquiry.token })).status).toBe(
        200,
      )
      const reread = await visitor('192.0.2.1').rpc('read_thread', {
        mailbox_token: inquiry.token,
      })
      expect(reread.status).toBe(429)
      expect(reread.error?.code).toBe('thread_read_limit')

      const message = () => ({
        mailbox_token: inquiry.token,
        message_id: randomUUID(),
        sealed: armored,
      })
      expect((await visitor().rpc('add_to_thread', message())).status).toBe(200)
      const raw = await fetch(`${backend.url}/rest/v1/rpc/add_to_thread`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(message()),
      })
      expect(raw.status).toBe(429)
      expect(raw.headers.get('retry-after')).toBe('3600')
      expect(await raw.json()).toMatchObject({ code: 'thread_write_limit' })
    })
  })
})
