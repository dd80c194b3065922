import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Decrypter, Encrypter, armor } from 'age-encryption'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ensureDevIdentity } from './dev-identity'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dev-identity-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('ensureDevIdentity', () => {
  it('creates an age-keygen style identity file readable by its owner only', async () => {
    const backendDir = join(dir, 'backend')
    const { identityFile, recipient } = await ensureDevIdentity(backendDir)

    expect(identityFile).toBe(join(backendDir, 'dev-identity.txt'))
    expect(recipient).toMatch(/^age1[0-9a-z]{58}$/)
    expect((await stat(identityFile)).mode & 0o777).toBe(0o600)
    const lines = (await readFile(identityFile, 'utf8')).trimEnd().split('\n')
    expect(lines[0]).toMatch(/^# created: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(lines[1]).toBe(`# public key: ${recipient}`)
    expect(lines[2]).toMatch(/^AGE-SECRET-KEY-1[0-9A-Z]+$/)
  })

  it('keeps the same key on later calls, including concurrent first calls', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => ensureDevIdentity(dir)))
    expect(new Set(results.map((result) => result.recipient)).size).toBe(1)
    expect((await ensureDevIdentity(dir)).recipient).toBe(results[0]?.recipient)
  })

  it('opens what was sealed to its recipient', async () => {
    const { identityFile, recipient } = await ensureDevIdentity(dir)
    const encrypter = new Encrypter()
    encrypter.addRecipient(recipient)
    const sealed = armor.encode(await encrypter.encrypt('hello'))
    const secret = (await readFile(identityFile, 'utf8'))
      .split('\n')
      .find((line) => line.startsWith('AGE-'))
    const decrypter = new Decrypter()
    decrypter.addIdentity(secret ?? '')
    expect(await decrypter.decrypt(armor.decode(sealed), 'text')).toBe('hello')
  })
})
