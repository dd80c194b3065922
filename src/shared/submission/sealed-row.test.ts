import { createHash } from 'node:crypto'
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { beforeAll, describe, expect, it } from 'vitest'
import { isAgeArmor, keySetId, SEALED_MAX_CHARS } from './sealed-row'
import { armorSamples } from './submission-test-fixtures'

async function newIdentity(): Promise<{ identity: string; recipient: string }> {
  const identity = await generateIdentity()
  return { identity, recipient: await identityToRecipient(identity) }
}

let staff: { identity: string; recipient: string }
beforeAll(async () => {
  staff = await newIdentity()
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
