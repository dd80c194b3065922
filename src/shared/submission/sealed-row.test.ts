import { createHash } from 'node:crypto'
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { beforeAll, describe, expect, it } from 'vitest'
import { isAgeArmor, keyFingerprint, keySetId, SEALED_MAX_CHARS } from './sealed-row'
import { armorSamples } from './submission-test-fixtures'

async function newIdentity(): Promise<{ identity: string; recipient: string }> {
  const identity = await generateIdentity()
  return { identity, recipient: await identityToRecipient(identity) }
}

let staff: { identity: string; recipient: string }
beforeAll(async () => {
  staff = await newIdentity()
})

describe('keyFingerprint', () => {
  it('is the key_id in four groups of four, so a person can compare it aloud', () => {
    expect(keyFingerprint('3f2a9c1e77b0d412')).toBe('3f2a 9c1e 77b0 d412')
  })

  it('changes when a recipient of the set changes', async () => {
    const second = await newIdentity()
    const alone = keyFingerprint(await keySetId([staff.recipient]))
    const both = keyFingerprint(await keySetId([staff.recipient, second.recipient]))
    expect(alone).toMatch(/^([0-9a-f]{4} ){3}[0-9a-f]{4}$/)
    expect(both).not.toBe(alone)
  })
})

describe('keySetId', () => {
  const nodeKeySetId = (recipients: string[]) =>
    createHash('sha256')
      .update([...new Set(recipients)].sort().join('\n'), 'utf8')
      .digest('hex')
      .slice(0, 16)

  it('is the first 16 hex characters of SHA-256 over the sorted recipients', async () => {
    const second = await newIdentity()
    const recipients = [second.recipient, staff.recipient]
    const id = await keySetId(recipients)
    expect(id).toMatch(/^[0-9a-f]{16}$/)
    expect(id).toBe(nodeKeySetId(recipients))
  })

  it('does not depend on order or duplicates', async () => {
    const second = await newIdentity()
    expect(await keySetId([staff.recipient, second.recipient])).toBe(
      await keySetId([second.recipient, staff.recipient, second.recipient]),
    )
    expect(await keySetId([staff.recipient])).not.toBe(
      await keySetId([staff.recipient, second.recipient]),
    )
  })
  it('writes every byte as two hex digits, so it matches `sha256sum` even when a byte is below 0x10', async () => {
    // This recipient's digest starts with the byte 0x07: "07…", never "7…".
    const recipient = 'age1uzhtzpwzeg483rmp969k7mmrsx9dxgzr5mupjcv7yr6jynqk2vls0xd9yf'
    const expected = createHash('sha256').update(recipient, 'utf8').digest('hex').slice(0, 16)
    expect(expected.startsWith('07')).toBe(true)

    expect(await keySetId([recipient])).toBe(expected)
  })
})

describe('isAgeArmor', () => {
  it('accepts what age writes and refuses everything else the database refuses', async () => {
    const samples = await armorSamples(staff.recipient)
    expect(samples['over 51,200 characters']?.armor.length).toBeGreaterThan(SEALED_MAX_CHARS)
    for (const [name, { armor, valid }] of Object.entries(samples)) {
      expect(isAgeArmor(armor), name).toBe(valid)
    }
    expect(isAgeArmor(null)).toBe(false)
  })
})

describe('isAgeArmor at its edges', () => {
  const wrap = (binary: string, padding = true) => {
    const base64 = btoa(binary)
    const body = padding ? base64 : base64.replace(/=+$/, '')
    return `-----BEGIN AGE ENCRYPTED FILE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END AGE ENCRYPTED FILE-----\n`
  }
  const header = 'age-encryption.org/v1\n-> X25519 c3RhbmQtaW4\nYm9keQ\n--- bWFj\n'

  it('needs the header MAC line after the stanza', () => {
    expect(isAgeArmor(wrap(`${header}payload`))).toBe(true)
    expect(isAgeArmor(wrap('age-encryption.org/v1\n-> X25519 c3RhbmQtaW4\nYm9keQ\npayload'))).toBe(
      false,
    )
  })

  it('refuses text before or after the armor, and base64 without its padding', async () => {
    const { armor } = (await armorSamples(staff.recipient))['an armor age wrote']!
    expect(isAgeArmor(armor)).toBe(true)
    expect(isAgeArmor(`x${armor}`)).toBe(false)
    expect(isAgeArmor(`${armor}x`)).toBe(false)
    // 2 bytes over a multiple of 3: canonical base64 ends in "=", which must be there.
    const binary = `${header}ab`
    expect(binary.length % 3).toBe(2)
    expect(isAgeArmor(wrap(binary))).toBe(true)
    expect(isAgeArmor(wrap(binary, false))).toBe(false)
  })

  it(`takes the longest armor within ${SEALED_MAX_CHARS} characters, not the next one`, () => {
    // An armor's length moves in steps of 4 or 5 characters: collect the two around the bound.
    const sizes = new Map<number, string>()
    for (let filler = 37_600; filler < 37_800; filler += 1) {
      const armor = wrap(`${header}${'p'.repeat(filler)}`)
      sizes.set(armor.length, armor)
    }
    const lengths = [...sizes.keys()].sort((a, b) => a - b)
    const within = Math.max(...lengths.filter((length) => length <= SEALED_MAX_CHARS))
    const beyond = Math.min(...lengths.filter((length) => length > SEALED_MAX_CHARS))
    expect(SEALED_MAX_CHARS - within).toBeLessThan(5)
    expect(isAgeArmor(sizes.get(within))).toBe(true)
    expect(isAgeArmor(sizes.get(beyond))).toBe(false)
  })
})
