import { generateX25519Identity } from 'age-encryption'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { describe, expect, it } from 'vitest'
import {
  fingerprintOf,
  linkCodeOf,
  LinkOpenError,
  newOneTimeKey,
  openKeySet,
  sealKeySet,
} from './device-link'

describe('the device link', () => {
  it('names a one-time recipient by five words of the list, the same for the same recipient', async () => {
    const key = await newOneTimeKey()
    const words = key.code.split(' ')
    expect(words).toHaveLength(5)
    for (const word of words) expect(wordlist).toContain(word)
    expect(await linkCodeOf(key.recipient)).toBe(key.code)
    expect(await linkCodeOf((await newOneTimeKey()).recipient)).not.toBe(key.code)
  })

  it('reads a typed code whatever its case and separators, and refuses anything else', async () => {
    const { code } = await newOneTimeKey()
    const expected = code.replaceAll(' ', '-')
    expect(fingerprintOf(code.toUpperCase().replaceAll(' ', ' - '))).toBe(expected)
    expect(fingerprintOf(`  ${code.replaceAll(' ', '.')} `)).toBe(expected)
    expect(fingerprintOf(code.split(' ').slice(0, 4).join(' '))).toBeNull()
    expect(fingerprintOf(`${code} extra`)).toBeNull()
    expect(fingerprintOf(code.replace(/^\w+/, 'notaword'))).toBeNull()
  })

  it('opens the key set sealed to it, with the comparison code the sealing device shows', async () => {
    const identities = [await generateX25519Identity(), await generateX25519Identity()]
    const key = await newOneTimeKey()
    const { sealed, comparison } = await sealKeySet(identities, key.recipient)
    expect(comparison).toMatch(/^\d{3} \d{3}$/)
    expect(sealed).not.toContain(identities[0]!.slice(20))
    expect(await openKeySet(key, sealed)).toEqual({ identities, comparison })
  })

  it('shows another comparison code for a key set swapped in by the server', async () => {
    const key = await newOneTimeKey()
    const genuine = await sealKeySet([await generateX25519Identity()], key.recipient)
    // The server knows the public recipient and can seal its own key set to it.
    const swapped = await sealKeySet([await generateX25519Identity()], key.recipient)
    const opened = await openKeySet(key, swapped.sealed)
    expect(opened.comparison).not.toBe(genuine.comparison)
  })

  it('refuses what another one-time key sealed, or what holds no key', async () => {
    const key = await newOneTimeKey()
    const other = await newOneTimeKey()
    const toOther = await sealKeySet([await generateX25519Identity()], other.recipient)
    await expect(openKeySet(key, toOther.sealed)).rejects.toBeInstanceOf(LinkOpenError)
    const noKey = await sealKeySet(['not a key'], key.recipient)
    await expect(openKeySet(key, noKey.sealed)).rejects.toBeInstanceOf(LinkOpenError)
  })
})
