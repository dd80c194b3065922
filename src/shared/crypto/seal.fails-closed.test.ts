// sealText's last check: whatever age hands back, only an age armor may leave. age never breaks
// that promise today, so this file replaces its armor encoder with one that does.
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { afterEach, beforeAll, expect, it, vi } from 'vitest'
import { sealText } from './seal'
import { SealError } from './seal-error'

const armorOutput = vi.hoisted(() => ({ override: null as null | ((armored: string) => string) }))

vi.mock('age-encryption', async (importOriginal) => {
  const age = await importOriginal<typeof import('age-encryption')>()
  return {
    ...age,
    armor: {
      ...age.armor,
      encode: (bytes: Uint8Array) => {
        const armored = age.armor.encode(bytes)
        return armorOutput.override ? armorOutput.override(armored) : armored
      },
    },
  }
})

const plaintext = JSON.stringify({ name: 'Night Owl', message: 'A launch in March.' })

let staff: string
beforeAll(async () => {
  staff = await identityToRecipient(await generateIdentity())
})
afterEach(() => {
  armorOutput.override = null
})

it('seals as usual when age gives a complete armor', async () => {
  const sealed = await sealText(plaintext, [staff])
  expect(sealed.startsWith('-----BEGIN AGE ENCRYPTED FILE-----\n')).toBe(true)
  expect(sealed.endsWith('-----END AGE ENCRYPTED FILE-----\n')).toBe(true)
})

it.each([
  ['no header', (armored: string) => armored.replace('-----BEGIN AGE ENCRYPTED FILE-----\n', '')],
  ['no footer', (armored: string) => armored.replace('-----END AGE ENCRYPTED FILE-----\n', '')],
  ['neither', () => plaintext],
  [
    'a header for another format',
    (armored: string) => armored.replace('AGE ENCRYPTED FILE', 'PGP MESSAGE'),
  ],
])('fails closed when what comes back has %s', async (_name, corrupt) => {
  armorOutput.override = corrupt
  const failure = await sealText(plaintext, [staff]).catch((error: unknown) => error)
  expect(failure).toBeInstanceOf(SealError)
  expect(failure).toMatchObject({ reason: 'encrypt-failed' })
})
