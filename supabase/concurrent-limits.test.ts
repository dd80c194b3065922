// @vitest-environment node
import { randomBytes, randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createThrowawayDatabase, type ThrowawayDatabase } from './local/test-support'

/**
 * The abuse limits under concurrent requests, on PostgreSQL 15 with one connection per request, as
 * PostgREST runs them: a transaction, `set local role anon`, the request's headers, and anon's
 * timeouts as Supabase applies them (statement 3 s, lock 8 s). Two things must hold together: the
 * limits stay exact however many requests arrive at once, and no visitor waits for another
 * network's request, however long that one takes.
 */

const ARMOR_BODY = Buffer.concat([
  Buffer.from('age-encryption.org/v1\n-> X25519 concurrency\nstanza\n--- mac\n'),
  randomBytes(600),
]).toString('base64')
const ARMOR = `-----BEGIN AGE ENCRYPTED FILE-----\n${ARMOR_BODY.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END AGE ENCRYPTED FILE-----\n`
const RECIPIENT = 'age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc'

let database: ThrowawayDatabase
let admin: pg.Client
let keyId: string

/** What a request came to: 'ok', or the SQLSTATE and, for a PostgREST refusal, its code. */
type Outcome = string

/** One anonymous request in its own connection and transaction, as PostgREST makes it. */
class Request {
  private readonly client = new pg.Client({ connectionString: database.url })

  static async open(address: string | null): Promise<Request> {
    const request = new Request()
    await request.client.connect()
    await request.client.query('begin')
    await request.client.query(`set local statement_timeout = '3s'; set local lock_timeout = '8s'`)
    await request.client.query('set local role anon')
    await request.client.query(`select set_config('request.headers', $1, true)`, [
      JSON.stringify(address === null ? {} : { 'cf-connecting-ip': address }),
    ])
    return request
  }

  /** Runs `sql`; a refusal rolls the transaction back, as PostgREST does. */
  async run(sql: string, params: unknown[] = []): Promise<Outcome> {
    try {
      await this.client.query(sql, params)
      return 'ok'
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string }
      await this.client.query('rollback')
      if (code === 'PGRST') return `PGRST ${JSON.parse(message ?? '{}').code as string}`
      return code ?? String(error)
    }
  }

  insert(): Promise<Outcome> {
    return this.run(
      `insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values ($1, $2, $3, $4)`,
      [randomUUID(), ARMOR, keyId, randomBytes(32)],
    )
  }

  /** Commits what is left (a refused request was rolled back already) and closes. */
  async end(): Promise<void> {
    await this.client.query('commit').catch(() => {})
    await this.client.end()
  }
}

/** A whole request: opened, run, committed. */
async function insertFrom(address: string | null): Promise<Outcome> {
  const request = await Request.open(address)
  try {
    return await request.insert()
  } finally {
    await request.end()
  }
}

const tally = (outcomes: Outcome[]) =>
  outcomes.reduce<Record<string, number>>(
    (counts, outcome) => ({ ...counts, [outcome]: (counts[outcome] ?? 0) + 1 }),
    {},
  )

async function stored(): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    'select count(*)::int as n from public.contact_submissions',
  )
  return rows[0]?.n ?? 0
}

/** Resolves with the time `promise` took, in milliseconds, and what it resolved to. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now()
  const value = await promise
  return { ms: performance.now() - started, value }
}

beforeAll(async () => {
  database = await createThrowawayDatabase({ migrated: true })
  admin = new pg.Client({ connectionString: database.url })
  await admin.connect()
  const { rows } = await admin.query<{ key_id: string }>(
    `select private.register_submission_key(array[$1]) as key_id`,
    [RECIPIENT],
  )
  keyId = rows[0]?.key_id ?? ''
}, 120_000)

afterAll(async () => {
  await admin?.end()
  await database?.drop()
})

beforeEach(async () => {
  await admin.query(`
    delete from public.contact_submissions;
    delete from private.contact_rate_events;
    delete from private.thread_rate_events;
    update private.contact_slots set taken_at = '-infinity';
    update private.contact_limits set global_limit = 200, network_limit = 5`)
})

describe('the form’s limits under concurrent requests', () => {
  it('stores exactly the global cap of 60 requests arriving at once from 60 networks', async () => {
    await admin.query('update private.contact_limits set global_limit = 20')
    // Every request holds its transaction open until all have inserted: the most overlap there is.
    const requests = await Promise.all(
      Array.from({ length: 60 }, (_, n) => Request.open(`198.18.${n}.1`)),
    )
    const outcomes = await Promise.all(requests.map((request) => request.insert()))
    await Promise.all(requests.map((request) => request.end()))
    expect(tally(outcomes)).toEqual({ ok: 20, 'PGRST contact_global_limit': 40 })
    expect(await stored()).toBe(20)
  }, 60_000)

  it('stores exactly the global cap when many requests come and go at once', async () => {
    await admin.query('update private.contact_limits set global_limit = 25')
    const outcomes = await Promise.all(
      Array.from({ length: 80 }, (_, n) => insertFrom(`198.19.${n}.1`)),
    )
    expect(tally(outcomes)).toEqual({ ok: 25, 'PGRST contact_global_limit': 55 })
    expect(await stored()).toBe(25)
  }, 60_000)

  it('stores exactly the network limit of 30 requests arriving at once from one /24', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, n) => insertFrom(`203.0.113.${n + 1}`)),
    )
    // On a slow machine a request may find its network busy for over a second: it is then told to
    // try again, and counts for nothing.
    const { ok, ...refused } = tally(outcomes)
    expect(ok).toBe(5)
    expect(Object.keys(refused)).toEqual(
      expect.arrayContaining(['PGRST contact_network_limit']) as unknown,
    )
    for (const outcome of Object.keys(refused))
      expect(['PGRST contact_network_limit', 'PGRST contact_network_busy']).toContain(outcome)
    expect(await stored()).toBe(5)
  }, 60_000)

  it('an insert completes while another network’s request holds its turn and a slot open', async () => {
    const holding = await Request.open('192.0.2.10')
    expect(await holding.insert()).toBe('ok')
    // That transaction now holds its network's lock and one of the global slots, and stays open.
    const other = await timed(insertFrom('198.51.100.10'))
    const unknown = await timed(insertFrom(null))
    await holding.end()
    expect(other.value).toBe('ok')
    expect(unknown.value).toBe('ok')
    expect(other.ms).toBeLessThan(1000)
    expect(unknown.ms).toBeLessThan(1000)
    expect(await stored()).toBe(3)
  }, 60_000)

  it('a request of the same network waits a second at most, then is told to try again (429), not 500', async () => {
    const holding = await Request.open('192.0.2.20')
    expect(await holding.insert()).toBe('ok')
    const same = await timed(insertFrom('192.0.2.21'))
    await holding.end()
    expect(same.value).toBe('PGRST contact_network_busy')
    expect(same.ms).toBeGreaterThanOrEqual(900)
    expect(same.ms).toBeLessThan(2500)
  }, 60_000)

  it('a slot held by a request in flight is freed for others when it is refused', async () => {
    await admin.query('update private.contact_limits set global_limit = 1')
    const first = await Request.open('192.0.2.30')
    expect(await first.insert()).toBe('ok')
    expect(await insertFrom('198.51.100.30')).toBe('PGRST contact_global_limit')
    await first.run('select 1 / 0')
    await first.end()
    expect(await insertFrom('198.51.100.31')).toBe('ok')
    expect(await stored()).toBe(1)
  }, 60_000)
})

describe('the thread’s limits under concurrent requests', () => {
  let token: string

  beforeEach(async () => {
    token = randomBytes(32).toString('hex')
    await admin.query(
      `insert into public.contact_submissions (id, sealed, key_id, mailbox_hash)
       values ($1, $2, $3, sha256(decode($4, 'hex')))`,
      [randomUUID(), ARMOR, keyId, token],
    )
  })

  async function addFrom(address: string, mailboxToken = token): Promise<Outcome> {
    const request = await Request.open(address)
    try {
      return await request.run(`select public.add_to_thread($1, $2, $3)`, [
        mailboxToken,
        randomUUID(),
        ARMOR,
      ])
    } finally {
      await request.end()
    }
  }

  it('stores exactly 10 of 30 messages sent at once to one mailbox from 30 networks', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, n) => addFrom(`198.18.${n}.2`)),
    )
    expect(tally(outcomes)).toEqual({ ok: 10, 'PGRST thread_write_limit': 20 })
    const { rows } = await admin.query<{ n: number }>(
      'select count(*)::int as n from public.contact_messages',
    )
    expect(rows[0]?.n).toBe(10)
  }, 60_000)

  it('counts exactly 10 misses of 30 wrong receipts sent at once from one /24', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        addFrom(`203.0.113.${n + 1}`, randomBytes(32).toString('hex')),
      ),
    )
    expect(tally(outcomes)).toEqual({ ok: 10, 'PGRST thread_network_limit': 20 })
  }, 60_000)

  it('a message completes while another mailbox’s request holds its transaction open', async () => {
    const other = randomBytes(32).toString('hex')
    await admin.query(
      `insert into public.contact_submissions (id, sealed, key_id, mailbox_hash)
       values ($1, $2, $3, sha256(decode($4, 'hex')))`,
      [randomUUID(), ARMOR, keyId, other],
    )
    const holding = await Request.open('192.0.2.40')
    expect(
      await holding.run(`select public.add_to_thread($1, $2, $3)`, [other, randomUUID(), ARMOR]),
    ).toBe('ok')
    const message = await timed(addFrom('198.51.100.40'))
    await holding.end()
    expect(message.value).toBe('ok')
    expect(message.ms).toBeLessThan(1000)
  }, 60_000)
})
