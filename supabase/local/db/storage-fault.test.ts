// @vitest-environment node
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Encrypter, armor, identityToRecipient } from 'age-encryption'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureDevIdentity } from '../dev-identity'
import { REPO_ROOT } from '../paths'

/**
 * `npm run backend` as a process whose data folder stops being writable, as a careless operator
 * (or a full disk) makes it: a storage fault is a 503 (try later), never a refusal, /health says
 * so, and everything works again, without a restart, once the folder can be written. Root ignores
 * file modes, so under root the backend runs as `nobody`.
 */

const NOBODY = 65534
const asRoot = process.getuid?.() === 0

async function chmodTree(dir: string, mode: 'a-w' | 'u+w') {
  await new Promise((resolve, reject) =>
    spawn('chmod', ['-R', mode, dir]).on('exit', (code) =>
      code === 0 ? resolve(null) : reject(new Error(`chmod ${code}`)),
    ),
  )
}

describe('a data folder that cannot be written', () => {
  let dir: string
  let child: ChildProcess
  let apiUrl: string
  let anonKey: string
  let sealedRow: () => Record<string, unknown>

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'local-backend-fault-'))
    if (asRoot) await chown(dir, NOBODY, NOBODY)
    await chmod(dir, 0o755)
    child = spawn(join(REPO_ROOT, 'node_modules/.bin/tsx'), ['supabase/local/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        LOCAL_BACKEND_DIR: dir,
        LOCAL_API_PORT: '0',
        LOCAL_DB_PORT: 'off',
        HOME: dir,
      },
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    })
    let output = ''
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('Press Ctrl+C')) resolve()
      })
      child.on('exit', (code) => reject(new Error(`backend exited (${code}): ${output}`)))
    })
    apiUrl = /API URL\s+(\S+)/.exec(output)?.[1] ?? ''
    anonKey = /anon key\s+(\S+)/.exec(output)?.[1] ?? ''
    // The development key the backend registered at start.
    const secret = (await readFile((await ensureDevIdentity(dir)).identityFile, 'utf8'))
      .split('\n')
      .find((line) => line.startsWith('AGE-'))
    const recipient = await identityToRecipient(secret ?? '')
    const encrypter = new Encrypter()
    encrypter.addRecipient(recipient)
    const sealed = armor.encode(await encrypter.encrypt('{"v":1}'))
    const keyId = createHash('sha256').update(recipient).digest('hex').slice(0, 16)
    sealedRow = () => ({
      id: randomUUID(),
      key_id: keyId,
      sealed,
      mailbox_hash: `\\x${randomBytes(32).toString('hex')}`,
    })
  }, 120_000)

  afterAll(async () => {
    child?.kill('SIGTERM')
    await chmodTree(dir, 'u+w').catch(() => {})
    await rm(dir, { recursive: true, force: true })
  })

  const insert = () =>
    fetch(`${apiUrl}/rest/v1/contact_submissions`, {
      method: 'POST',
      headers: { apikey: anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(sealedRow()),
    })

  it('answers 503 with Retry-After while it lasts, /health reports it, and recovers without a restart', async () => {
    expect((await insert()).status).toBe(201)

    await chmodTree(join(dir, 'db'), 'a-w')
    const health = await fetch(`${apiUrl}/health`)
    expect(health.status).toBe(503)
    expect(await health.json()).toMatchObject({ status: 'unavailable' })
    const refused = await insert()
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(refused.headers.get('www-authenticate')).toBeNull()

    await chmodTree(join(dir, 'db'), 'u+w')
    expect((await fetch(`${apiUrl}/health`)).status).toBe(200)
    expect((await insert()).status).toBe(201)
  }, 60_000)
})
