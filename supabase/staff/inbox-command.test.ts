// @vitest-environment node
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { armor, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runInbox } from './inbox-command'
import { keySetId } from '../../src/shared/submission/sealed-row'
import {
  createThrowawayDatabase,
  TEST_SERVER_URL,
  type ThrowawayDatabase,
} from '../local/test-support'

/**
 * `npm run inbox` against a real PostgreSQL 15 holding what a Supabase project holds (bootstrap.sql,
 * then every migration), connected as a staff login: a member of contact_staff, not a superuser.
 */

const MARKER = 'ZQ-INBOX-MARKER'
const LONG_MESSAGE = `${MARKER} first line 🦊\nשלום עולם مرحبا\n\u001b[31mred\n${'x'.repeat(4900)}`

// Fixed ids: each first 8 characters is the ref; two share "abcd1234" to prove the ambiguity error.
const ids = {
  overdueOld: '0a000000-0000-4000-8000-000000000001',
  overdueNew: '0b000000-0000-4000-8000-000000000002',
  dueLater: '0c000000-0000-4000-8000-000000000003',
  dueSooner: '0d000000-0000-4000-8000-000000000004',
  respondedLongAgo: 'abcd1234-0000-4000-8000-000000000005',
  completedJustNow: 'abcd1234-0000-4000-8000-000000000006',
  engaged: '0e000000-0000-4000-8000-000000000007',
}

let server: ThrowawayDatabase
let admin: pg.Client
let staffUrl: string
let staffRole: string
let dir: string
let staffKeyFile: string
let otherKeyFile: string
let staffKeyId: string

async function newIdentityFile(name: string): Promise<{ path: string; recipient: string }> {
  const identity = await generateX25519Identity()
  const recipient = await identityToRecipient(identity)
  const path = join(dir, name)
  await writeFile(path, `# public key: ${recipient}\n${identity}\n`, { mode: 0o600 })
  return { path, recipient }
}

async function seal(
  id: string,
  recipient: string,
  fields: Record<string, string | null>,
): Promise<string> {
  const document = JSON.stringify({
    v: 1,
    id,
    ...fields,
    submitted_at: '2026-11-22T10:00:00.000Z',
    reply_to: recipient,
    signing_key: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    attachments: [],
    pad: 'AAAA',
  })
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient)
  return armor.encode(await encrypter.encrypt(document))
}

const sealedFields = {
  name: `${MARKER} Ada ✨`,
  contact: `${MARKER}@example.com`,
  project_type: 'community-building',
  budget: null,
  message: LONG_MESSAGE,
  user_agent: `${MARKER} Mozilla/5.0`,
}

/** Runs the command as staff would, capturing what it prints. */
async function inbox(argv: string[], stdin?: NodeJS.ReadableStream) {
  const out: string[] = []
  const err: string[] = []
  const env = { DATABASE_URL: staffUrl, INIT_CWD: dir }
  let failure: Error | null = null
  try {
    await runInbox(argv, {
      env,
      output: { out: (t) => out.push(t), err: (t) => err.push(t) },
      stdin,
    })
  } catch (error) {
    failure = error as Error
  }
  return { out: out.join('\n'), err: err.join('\n'), failure }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'staff-inbox-'))
  server = await createThrowawayDatabase({ migrated: true })
  admin = new pg.Client({ connectionString: server.url })
  await admin.connect()

  const staff = await newIdentityFile('staff-key.txt')
  const other = await newIdentityFile('other-key.txt')
  staffKeyFile = staff.path
  otherKeyFile = other.path
  const [registered] = (
    await admin.query<{ key_id: string }>(
      `select private.register_submission_key(array[$1], 'inbox test') as key_id`,
      [staff.recipient],
    )
  ).rows
  staffKeyId = registered?.key_id ?? ''
  // The browser, the database and this command agree on a recipient set's id.
  expect(staffKeyId).toBe(await keySetId([staff.recipient]))

  // Fixtures with chosen times and statuses: replica mode skips the insert triggers that would
  // stamp created_at and alert, as rows restored from a backup would.
  await admin.query('begin')
  await admin.query('set local session_replication_role = replica')
  const row = async (id: string, hoursAgo: number, status: string) => {
    await admin.query(
      `insert into public.contact_submissions
         (id, created_at, status, responded_at, completed_at, sealed, key_id, mailbox_hash)
       select $1, created, $3::text,
              case when $3 <> 'new' then created + interval '30 minutes' end,
              case when $3 in ('completed', 'declined') then created + interval '40 minutes' end,
              $4, $5, sha256(convert_to($6, 'UTF8'))
         from (select now() - make_interval(hours => $2) as created) as fixture`,
      [id, hoursAgo, status, await seal(id, staff.recipient, sealedFields), staffKeyId, id],
    )
  }
  await row(ids.overdueNew, 30, 'new')
  await row(ids.overdueOld, 40, 'new')
  await row(ids.dueLater, 2, 'new')
  await row(ids.dueSooner, 10, 'new')
  await row(ids.respondedLongAgo, 50, 'responded')
  await row(ids.completedJustNow, 1, 'completed')
  await row(ids.engaged, 5, 'engaged')
  await admin.query('commit')

  // A staff login as the README tells a hosted project to create one.
  staffRole = `inbox_staff_${randomBytes(4).toString('hex')}`
  await admin.query(`create role ${staffRole} login password 'staff-test' in role contact_staff`)
  const url = new URL(server.url)
  url.username = staffRole
  url.password = 'staff-test'
  staffUrl = url.toString()
}, 60_000)

afterAll(async () => {
  await admin?.end()
  await server?.drop()
  // Roles are cluster-wide: dropped after the database that held its privileges.
  const cluster = new pg.Client({ connectionString: TEST_SERVER_URL })
  await cluster.connect()
  await cluster.query(`drop role if exists ${staffRole}`)
  await cluster.end()
  await rm(dir, { recursive: true, force: true })
})

describe('npm run inbox', () => {
  it('lists overdue first (oldest first), then new (next due first), then the rest (newest first)', async () => {
    const { out, failure } = await inbox(['list'])
    expect(failure).toBeNull()
    const refs = out
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/)[0])
      .filter((ref) => ref !== undefined && /^[0-9a-f]{8}$/.test(ref))
    expect(refs).toEqual(
      [
        ids.overdueOld,
        ids.overdueNew,
        ids.dueSooner,
        ids.dueLater,
        ids.completedJustNow,
        ids.engaged,
        ids.respondedLongAgo,
      ].map((id) => id.slice(0, 8)),
    )
    expect(out).toMatch(/^ref\s+age\s+status\s+due\s+key_id/)
    expect(out).toContain(`0a000000  1d 16h  new        OVERDUE 16h`)
    expect(out).toContain(staffKeyId)
    expect(out).toContain('4 new (2 overdue), 7 in all.')
    expect(out).not.toContain(MARKER)
  })

  it('shows a sealed submission in full, decrypted with the staff identity', async () => {
    const { out, err, failure } = await inbox([
      'show',
      ids.dueLater.slice(0, 8),
      '--identity',
      staffKeyFile,
    ])
    expect(failure).toBeNull()
    expect(err).toBe('')
    expect(out).toContain(`Submission ${ids.dueLater}`)
    expect(out).toContain(`sealed to key_id ${staffKeyId}, opened here`)
    expect(out).toContain(`name          ${MARKER} Ada ✨`)
    expect(out).toContain(`contact       ${MARKER}@example.com`)
    expect(out).toContain('project_type  community-building')
    expect(out).toContain('budget        —')
    expect(out).toContain(`user_agent    ${MARKER} Mozilla/5.0`)
    expect(out).toContain('submitted_at  2026-11-22T10:00:00.000Z')
    expect(out).toMatch(/status {8}new, answer by .* UTC \(in 2[12]h \d+m\)/)
    // Every line of the message, in full; the escape sequence shown, not obeyed.
    expect(out).toContain(
      `  ${MARKER} first line 🦊\n  שלום עולם مرحبا\n  \\x1b[31mred\n  ${'x'.repeat(4900)}`,
    )
    expect(out).not.toContain('\u001b')
  })

  it('reads the identity from standard input with --identity -', async () => {
    const key = await readFile(staffKeyFile)
    const { out, failure } = await inbox(
      ['show', ids.overdueOld, '--identity', '-'],
      Readable.from([key]),
    )
    expect(failure).toBeNull()
    expect(out).toContain(`${MARKER} Ada ✨`)
    expect(out).toMatch(/status {8}new, answer by .* UTC \(OVERDUE 16h \d+m\)/)
  })

  it('with the wrong identity, says which key_id the row was sealed to', async () => {
    const { out, failure } = await inbox([
      'show',
      ids.dueLater.slice(0, 8),
      '--identity',
      otherKeyFile,
    ])
    expect(out).toBe('')
    expect(failure?.name).toBe('OpenSealedError')
    expect(failure?.message).toContain(`it was sealed to key_id ${staffKeyId}`)
    const otherRecipient = (await readFile(otherKeyFile, 'utf8')).match(/age1[0-9a-z]+/)?.[0] ?? ''
    expect(failure?.message).toContain(
      `${otherRecipient} (key_id ${await keySetId([otherRecipient])} alone)`,
    )
    expect(failure?.message).not.toContain('AGE-SECRET-KEY')
  })

  it('asks for more of the id when a ref names several rows', async () => {
    const { failure } = await inbox(['show', 'abcd1234', '--identity', staffKeyFile])
    expect(failure?.message).toContain('abcd1234 matches 2 submissions; give more of the id:')
    expect(failure?.message).toContain(ids.respondedLongAgo)
    expect(failure?.message).toContain(ids.completedJustNow)
    const { out } = await inbox(['show', ids.completedJustNow, '--identity', staffKeyFile])
    expect(out).toContain(`Submission ${ids.completedJustNow}`)
  })

  it('sets a status; the database stamps responded_at and the row leaves the new ones', async () => {
    const { out, failure } = await inbox(['status', ids.dueSooner.slice(0, 8), 'responded'])
    expect(failure).toBeNull()
    expect(out).toMatch(
      /^0d000000: new → responded \(responded_at \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.$/,
    )
    const [stored] = (
      await admin.query<{ status: string; responded_at: Date | null }>(
        'select status, responded_at from public.contact_submissions where id = $1',
        [ids.dueSooner],
      )
    ).rows
    expect(stored?.status).toBe('responded')
    expect(stored?.responded_at).toBeInstanceOf(Date)
    const { out: list } = await inbox(['list'])
    expect(list).toContain('3 new (2 overdue), 7 in all.')
  })

  it('refuses a status staff cannot set, and unknown refs', async () => {
    expect((await inbox(['status', ids.dueLater, 'new'])).failure?.message).toContain(
      'Status must be one of responded, engaged, completed, declined.',
    )
    expect((await inbox(['status', ids.dueLater])).failure?.message).toMatch(
      /^status takes <ref> <status>\./,
    )
    expect((await inbox(['show', 'ffffffff'])).failure?.message).toBe(
      'No submission has a reference starting with ffffffff.',
    )
    expect((await inbox(['show', "x'; drop table"])).failure?.message).toContain(
      'is not a reference',
    )
  })

  it('does not default to the local development identity for a hosted project', async () => {
    const { failure } = await inbox(['show', ids.dueLater])
    expect(failure?.message).toContain('pass the staff identity with --identity <file>')
  })
})
