// @vitest-environment node
import 'fake-indexeddb/auto'
import { armor, Decrypter, Encrypter, generateIdentity, identityToRecipient } from 'age-encryption'
import { openDB } from 'idb'
import { describe, expect, it, vi } from 'vitest'
import {
  atIpAddress,
  declinePasskeyOffer,
  forgetKey,
  hasSavedKey,
  KeyVaultError,
  parseIdentities,
  readKeyFile,
  saveKey,
  SCRYPT_LOG_N,
  shouldOfferPasskey,
  unlockKey,
} from './key-vault'

describe('the key on this device', () => {
  it('keeps only an age file to the passphrase, which unlocks to the same identity', async () => {
    const identity = await generateIdentity()
    expect(await hasSavedKey()).toBe(false)
    await saveKey([identity], 'correct horse battery')
    expect(await hasSavedKey()).toBe(true)

    const stored = (await (await openDB('inbox-key')).get('key', 'agency')) as Uint8Array
    const text = new TextDecoder().decode(stored)
    expect(text).not.toContain(identity)
    expect(text).toContain(`scrypt`)
    expect(text).toMatch(new RegExp(`-> scrypt \\S+ ${SCRYPT_LOG_N}\\n`))
    // Stock age reads it too: it is an ordinary passphrase-encrypted age file.
    const decrypter = new Decrypter()
    decrypter.addPassphrase('correct horse battery')
    expect(await decrypter.decrypt(stored, 'text')).toBe(identity)

    expect(await unlockKey('correct horse battery')).toEqual([identity])
    await expect(unlockKey('wrong horse battery')).rejects.toEqual(
      new KeyVaultError('wrong-passphrase'),
    )
    await forgetKey()
    expect(await hasSavedKey()).toBe(false)
  }, 30_000)

  it('takes the secret lines of an age-keygen file, and refuses what is not a key', async () => {
    const identity = await generateIdentity()
    const file = `# created: 2026-11-24\n# public key: ${await identityToRecipient(identity)}\n${identity}\n`
    expect(await parseIdentities(file)).toEqual([identity])
    await expect(parseIdentities('age1notasecret')).rejects.toEqual(new KeyVaultError('not-a-key'))
    await expect(parseIdentities('AGE-SECRET-KEY-1BROKEN')).rejects.toEqual(
      new KeyVaultError('not-a-key'),
    )
  })

  it('opens a key file as age-keygen wrote it, or encrypted with age -p (binary or armored)', async () => {
    const identity = await generateIdentity()
    const keygenFile = `# public key: ${await identityToRecipient(identity)}\n${identity}\n`
    const bytes = new TextEncoder().encode(keygenFile)
    expect(await readKeyFile(bytes, '')).toEqual([identity])

    // What `age -p` writes: an age file to a passphrase (its scrypt factor is age's, not ours).
    const encrypter = new Encrypter()
    encrypter.setPassphrase('file passphrase')
    encrypter.setScryptWorkFactor(10)
    const encrypted = await encrypter.encrypt(keygenFile)
    expect(await readKeyFile(encrypted, 'file passphrase')).toEqual([identity])
    const armored = new TextEncoder().encode(armor.encode(encrypted))
    expect(await readKeyFile(armored, 'file passphrase')).toEqual([identity])

    const locked = new KeyVaultError('file-passphrase')
    await expect(readKeyFile(encrypted, '')).rejects.toEqual(locked)
    await expect(readKeyFile(encrypted, 'not it')).rejects.toEqual(locked)
    await expect(readKeyFile(new TextEncoder().encode('hello'), '')).rejects.toEqual(
      new KeyVaultError('not-a-key'),
    )
  }, 30_000)

  it('offers no passkey at an IP address, where WebAuthn refuses them', async () => {
    expect([atIpAddress('127.0.0.1'), atIpAddress('[::1]'), atIpAddress('localhost')]).toEqual([
      true,
      true,
      false,
    ])
    vi.stubGlobal('window', {
      PublicKeyCredential: class {},
      location: { hostname: '127.0.0.1' },
    })
    vi.stubGlobal('PublicKeyCredential', {
      getClientCapabilities: () => Promise.resolve({ 'extension:prf': true }),
    })
    try {
      expect(await shouldOfferPasskey()).toBe(false)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('offers a passkey where PRF may be had, until declined; removing the key forgets the answer', async () => {
    const browserSays = (prf: boolean) =>
      vi.stubGlobal('PublicKeyCredential', {
        getClientCapabilities: () => Promise.resolve({ 'extension:prf': prf }),
      })
    expect(await shouldOfferPasskey()).toBe(false) // no WebAuthn at all
    vi.stubGlobal('window', { PublicKeyCredential: class {} })
    browserSays(true)
    try {
      expect(await shouldOfferPasskey()).toBe(true)
      await declinePasskeyOffer()
      expect(await shouldOfferPasskey()).toBe(false)
      await forgetKey()
      expect(await shouldOfferPasskey()).toBe(true)
      browserSays(false)
      expect(await shouldOfferPasskey()).toBe(false)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
