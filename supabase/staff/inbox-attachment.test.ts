// @vitest-environment node
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runInbox } from './inbox-command'
import { startLocalBackend, type LocalBackend } from '../local/local-backend'
import { objectFile } from '../local/storage/files'

/**
 * `npm run inbox -- attachment` (and stock `age`, /usr/bin/age, which must be installed): a sealed attachment uploaded as the form uploads it (anon,
 * binary age), fetched through the stand-in's Storage API, opened with the staff identity,
 * checked against its SHA-256 and written; a wrong identity or checksum keeps nothing.
 */

let backend: LocalBackend
let dir: string
let keyFile: string
let otherKeyFile: string
let recipient: string

async function identityFile(name: string) {
  const identity = await generateX25519Identity()
  const path = join(dir, name)
  await writeFile(path, `${identity}\n`, { mode: 0o600 })
  return { path, recipient: await identityToRecipient(identity) }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inbox-attachment-'))
  backend = await startLocalBackend({ apiPort: 0, dbPort: null, backendDir: 'memory' })
  ;({ path: keyFile, recipient } = await identityFile('staff.key'))
  ;({ path: otherKeyFile } = await identityFile('other.key'))
}, 60_000)
afterAll(async () => {
  await backend?.close()
  await rm(dir, { recursive: true, force: true })
})

async function inbox(argv: string[]) {
  const out: string[] = []
  let failure: Error | null = null
  try {
    await runInbox(argv, {
      env: {
        SUPABASE_URL: backend.url,
        SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
        INIT_CWD: dir,
      },
      output: { out: (text) => out.push(text), err: () => {} },
    })
  } catch (error) {
    failure = error as Error
  }
  return { out: out.join('\n'), failure }
}

/** `inbox attachment <name> --out <out> --identity <identity> [--sha256 <sha256>]`. */
const attachment = (name: string, out: string, identity: string, sha256?: string) =>
  inbox([
    'attachment',
    name,
    '--out',
    out,
    '--identity',
    identity,
    ...(sha256 ? ['--sha256', sha256] : []),
  ])

async function uploadSealed(plain: Uint8Array): Promise<string> {
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient)
  const name = `${randomUUID()}/${randomUUID()}`
  const sealed = Buffer.from(await encrypter.encrypt(plain))
  const anon = { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}` }
  const reserved = await fetch(`${backend.url}/rest/v1/rpc/reserve_attachment`, {
    method: 'POST',
    headers: { ...anon, 'content-type': 'application/json' },
    body: JSON.stringify({ object_name: name, byte_count: sealed.length }),
  })
  expect(reserved.status).toBe(204)
  const response = await fetch(`${backend.url}/storage/v1/object/contact-attachments/${name}`, {
    method: 'POST',
    headers: { ...anon, 'content-type': 'application/octet-stream' },
    body: sealed,
  })
  expect(response.status).toBe(200)
  return name
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

it('fetches, opens, checks and writes an attachment', async () => {
  const plain = randomBytes(300_000)
  const sha256 = createHash('sha256').update(plain).digest('hex')
  const name = await uploadSealed(plain)
  const out = join(dir, 'deck.pdf')
  const result = await attachment(name, out, keyFile, sha256)
  expect(result.failure).toBeNull()
  expect(result.out).toBe(`Wrote ${out} (300000 bytes, SHA-256 ${sha256}, as listed).`)
  expect((await readFile(out)).equals(plain)).toBe(true)
  expect((await stat(out)).mode & 0o777).toBe(0o600)
})

it('keeps nothing for a wrong identity or a wrong checksum', async () => {
  const name = await uploadSealed(randomBytes(1000))
  const wrongKey = join(dir, 'wrong-key.bin')
  const opened = await attachment(name, wrongKey, otherKeyFile)
  expect(opened.failure?.message).toMatch(/could not be opened with this identity/)
  expect(await exists(wrongKey)).toBe(false)

  const wrongSum = join(dir, 'wrong-sum.bin')
  const checked = await attachment(name, wrongSum, keyFile, '0'.repeat(64))
  expect(checked.failure?.message).toMatch(/not the 0{64} its inquiry lists/)
  expect(await exists(wrongSum)).toBe(false)

  const missing = await attachment(`${randomUUID()}/${randomUUID()}`, join(dir, 'none'), keyFile)
  expect(missing.failure?.message).toMatch(/No attachment .* is stored/)
})

it('stores a plain age file: stock age opens the object as Storage keeps it', async () => {
  const plain = randomBytes(70_000)
  const name = await uploadSealed(plain)
  const [row] = await backend.db.query<{ version: string }>(
    'select version from storage.objects where name = $1',
    [name],
  )
  const stored = objectFile(backend.storageDir, 'contact-attachments', name, row!.version)
  const opened = join(dir, 'opened-by-age.bin')
  await promisify(execFile)('age', ['-d', '-i', keyFile, '-o', opened, stored])
  expect((await readFile(opened)).equals(plain)).toBe(true)
})
