// @vitest-environment node
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { armor, Encrypter } from 'age-encryption'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { generateKey, nextSteps } from './generate-key'
import { parseIdentities } from './identity-file'
import { keySetId } from '../../src/shared/submission/sealed-row'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'staff-keygen-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** `npm test` installs Debian's age first (tests/support/ensure-chromium.sh); say so if it is missing. */
function assertStockAge(): void {
  try {
    execFileSync('age', ['--version'], { stdio: 'ignore' })
  } catch {
    throw new Error(
      "The stock age command is missing: run 'sudo apt-get install age' (npm test does it as root).",
    )
  }
}

describe('generateKey', () => {
  it('writes an age-keygen style identity file only its owner can read', async () => {
    const path = join(dir, 'key.txt')
    const key = await generateKey(path, new Date('2026-11-22T16:20:00.123Z'))
    const text = await readFile(path, 'utf8')
    const lines = text.split('\n')
    expect(lines[0]).toBe('# created: 2026-11-22T16:20:00Z')
    expect(lines[1]).toBe(`# public key: ${key.recipient}`)
    expect(lines[2]).toMatch(/^AGE-SECRET-KEY-1[0-9A-Z]{58}$/)
    expect(lines[3]).toBe('')
    expect(key.recipient).toMatch(/^age1[02-9ac-hj-np-z]{58}$/)
    expect(key.keyId).toBe(await keySetId([key.recipient]))
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect((await parseIdentities(text, path)).recipients).toEqual([key.recipient])
  })

  it('refuses to overwrite an existing file', async () => {
    const path = join(dir, 'key.txt')
    await writeFile(path, 'keep me')
    await expect(generateKey(path)).rejects.toThrow(/already exists\. Refusing to overwrite/)
    expect(await readFile(path, 'utf8')).toBe('keep me')
  })

  it('with --out -, hands the identity file to the pipe and writes no file', async () => {
    const piped: string[] = []
    const key = await generateKey('-', new Date(), (text) => piped.push(text))
    expect(piped).toHaveLength(1)
    expect((await parseIdentities(piped[0] ?? '', 'pipe')).recipients).toEqual([key.recipient])
    expect(nextSteps(key, 'x')).toContain(
      'age -d key.age | npm run inbox -- show <ref> --identity -',
    )
  })

  it('prints the recipient, the key_id and the next steps, never the secret', async () => {
    const path = join(dir, 'key.txt')
    const key = await generateKey(path)
    const steps = nextSteps(key, "Ops' key")
    expect(steps).toContain(`public recipient:  ${key.recipient}`)
    expect(steps).toContain(`key_id:            ${key.keyId}`)
    // The fingerprint the form shows for a build with this key alone (key-fingerprint.tsx).
    // The same set id as fingerprintIdOf (src/lib/env.ts) gives over the recipient and signing key.
    expect(key.fingerprintId).toBe(await keySetId([key.recipient, key.signingKey]))
    const fingerprint = key.fingerprintId.match(/.{4}/g)?.join(' ')
    expect(steps).toContain(`fingerprint:       ${fingerprint}`)
    expect(steps).toContain(`VITE_SUBMISSION_RECIPIENTS=${key.recipient}`)
    expect(steps).toContain(`VITE_AGENCY_SIGNING_KEYS=${key.signingKey}`)
    expect(steps).toContain(
      `select private.register_submission_key(array['${key.recipient}'], 'Ops'' key');`,
    )
    expect(steps).not.toContain('AGE-SECRET-KEY')
  })

  it('makes a key the stock age command decrypts with', async () => {
    assertStockAge()
    const path = join(dir, 'key.txt')
    const key = await generateKey(path)
    const encrypter = new Encrypter()
    encrypter.addRecipient(key.recipient)
    const sealed = armor.encode(await encrypter.encrypt('{"v":1,"message":"hello 🦊"}'))
    const plain = execFileSync('age', ['-d', '-i', path], { input: sealed, encoding: 'utf8' })
    expect(plain).toBe('{"v":1,"message":"hello 🦊"}')
  })
})

describe('parseIdentities', () => {
  it('explains what to do with a passphrase-protected or plugin identity file', async () => {
    await expect(
      parseIdentities('-----BEGIN AGE ENCRYPTED FILE-----\n…', 'key.txt.age'),
    ).rejects.toThrow('age -d key.txt.age | npm run inbox -- show <ref> --identity -')
    await expect(
      parseIdentities('# yubikey\nAGE-PLUGIN-YUBIKEY-1QQQQ\n', 'yk.txt'),
    ).rejects.toThrow(/plugin identity .* age -d -i/)
    await expect(parseIdentities('# nothing\n', 'empty.txt')).rejects.toThrow(
      'empty.txt holds no age identity.',
    )
  })
})
