/**
 * `npm run bench`, anonymous inserts under load: 50 senders at once, each from a network of its
 * own (`cf-connecting-ip`), each sending the form's insert again as soon as the last one was
 * answered, for 20 s after a 3 s warm-up, through the real PostgREST 12.0.2 (what Supabase runs,
 * with Supabase's role timeouts: anon's statements stop after 3 s) on the local PostgreSQL 15.
 * The abuse limits are raised out of the way (10,000 per network, 1,000,000 an hour) so that
 * every insert is one the database must store: what is measured is how the limits' own work
 * scales when many visitors send at once, not how they refuse. The staff alerts are configured as
 * on a deployed project (supabase/README.md, step 3): Vault holds the webhook's address and secret,
 * and `net.http_post` queues the request in a table, as pg_net does (its worker, which sends it
 * later, is not part of a visitor's request); stand-ins for both are created here.
 *
 * - Measured: inserts stored per second, and the median and 99th percentile of the time each
 *   request took, as a sender sees it.
 * - Target: every request stored (201): no statement timeout (500 57014), no other refusal.
 *
 * `BENCH_MIGRATIONS_DIR` runs it on another folder of migrations (an older schema, to compare);
 * `BENCH_SENDERS` and `BENCH_SECONDS` change the load. Writes bench-results/inserts.json; exits 1
 * if the target is missed.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { armor, Encrypter } from 'age-encryption'
import pg from 'pg'
import { openPostgresDatabase } from '../../supabase/local/db/postgres'
import { signApiKeys, DEMO_JWT_SECRET } from '../../supabase/local/gateway'
import { migrate } from '../../supabase/local/migrations'
import { MIGRATIONS_DIR } from '../../supabase/local/paths'
import { startRealPostgrest } from '../../supabase/local/rest/real-postgrest'
import { createThrowawayDatabase } from '../../supabase/local/test-support'
import { writeResults } from './harness'

const SENDERS = Number(process.env.BENCH_SENDERS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20)
const WARM_UP_SECONDS = 3
const MIGRATIONS = process.env.BENCH_MIGRATIONS_DIR ?? MIGRATIONS_DIR
const RECIPIENT = 'age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc'

type Answer = { status: number; code: string; ms: number; at: number }

/** pg_net's queue and Vault's view, as far as the staff alert uses them. */
const PG_NET_AND_VAULT = `
  create schema vault;
  create view vault.decrypted_secrets (name, decrypted_secret) as
    values ('staff_alert_webhook_url', 'https://example.invalid/functions/v1/staff-alert'),
           ('staff_alert_webhook_secret', 'bench-secret-bench-secret-bench-secret');
  create schema net;
  create unlogged table net.http_request_queue (
    id bigserial primary key, url text, body jsonb, headers jsonb, timeout_milliseconds integer
  );
  create function net.http_post(url text, body jsonb default '{}', params jsonb default '{}',
                                headers jsonb default '{}', timeout_milliseconds integer default 5000)
    returns bigint language sql as $$
      insert into net.http_request_queue (url, body, headers, timeout_milliseconds)
      values (url, body, headers, timeout_milliseconds) returning id
    $$;`

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN
}

async function main(): Promise<void> {
  const database = await createThrowawayDatabase()
  const migrated = await openPostgresDatabase(database.url)
  await migrate(migrated, MIGRATIONS).finally(() => migrated.close())
  const admin = new pg.Client({ connectionString: database.url })
  await admin.connect()
  const postgrest = await startRealPostgrest(database.url)
  try {
    const { rows } = await admin.query<{ key_id: string }>(
      `select private.register_submission_key(array[$1]) as key_id`,
      [RECIPIENT],
    )
    const keyId = rows[0]?.key_id ?? ''
    await admin.query(
      'update private.contact_limits set network_limit = 10000, global_limit = 1000000',
    )
    await admin.query(PG_NET_AND_VAULT)
    const encrypter = new Encrypter()
    encrypter.addRecipient(RECIPIENT)
    // A sealed brief of the form's usual size (1 KiB padded document).
    const sealed = armor.encode(await encrypter.encrypt(randomBytes(1024)))
    const { anonKey } = await signApiKeys(DEMO_JWT_SECRET)

    const started = performance.now()
    const measureFrom = started + WARM_UP_SECONDS * 1000
    const stopAt = measureFrom + SECONDS * 1000
    const answers: Answer[] = []
    const sender = async (index: number) => {
      const headers = {
        apikey: anonKey,
        authorization: `Bearer ${anonKey}`,
        'content-type': 'application/json',
        'cf-connecting-ip': `10.${Math.floor(index / 250)}.${index % 250}.7`,
      }
      while (performance.now() < stopAt) {
        const sent = performance.now()
        const response = await fetch(`${postgrest.url}/contact_submissions`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            id: randomUUID(),
            key_id: keyId,
            sealed,
            mailbox_hash: `\\x${randomBytes(32).toString('hex')}`,
          }),
        })
        const body = await response.text()
        const answered = performance.now()
        const code =
          response.status === 201
            ? ''
            : ((JSON.parse(body || '{}') as { code?: string }).code ?? '')
        if (sent >= measureFrom)
          answers.push({ status: response.status, code, ms: answered - sent, at: answered })
      }
    }
    await Promise.all(Array.from({ length: SENDERS }, (_, index) => sender(index)))

    const measured = answers.filter((answer) => answer.at <= stopAt)
    const latencies = measured.map((answer) => answer.ms).sort((a, b) => a - b)
    const stored = measured.filter((answer) => answer.status === 201).length
    const refused: Record<string, number> = {}
    for (const answer of measured.filter((a) => a.status !== 201)) {
      const key = `${answer.status} ${answer.code}`.trim()
      refused[key] = (refused[key] ?? 0) + 1
    }
    const result = {
      migrations: MIGRATIONS,
      senders: SENDERS,
      seconds: SECONDS,
      requests: measured.length,
      storedPerSecond: Math.round((stored / SECONDS) * 10) / 10,
      p50Ms: Math.round(percentile(latencies, 0.5)),
      p99Ms: Math.round(percentile(latencies, 0.99)),
      refused,
    }
    const { rows: count } = await admin.query<{ n: number }>(
      'select count(*)::int as n from public.contact_submissions',
    )
    console.log(
      `${SENDERS} senders from ${SENDERS} networks for ${SECONDS} s through PostgREST 12.0.2 on PostgreSQL 15 (${MIGRATIONS}):`,
    )
    console.log(
      `  ${result.storedPerSecond} inserts stored per second (${stored} of ${measured.length} requests; ${count[0]?.n ?? 0} rows with the warm-up)`,
    )
    console.log(`  latency p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`)
    console.log(`  refused: ${Object.keys(refused).length ? JSON.stringify(refused) : 'none'}`)
    await writeResults('inserts', result)
    const met = stored === measured.length && measured.length > 0
    console.log(
      met ? 'Target met: every request stored.' : 'Target missed: not every request was stored.',
    )
    if (!met) process.exitCode = 1
  } finally {
    await postgrest.stop()
    await admin.end()
    await database.drop()
  }
}

await main()
