// The sealer's last check: whatever age hands back, only an age armor may leave. age never breaks
// that promise today, so this file replaces its armor encoder with one that does.
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { afterEach, beforeAll, expect, it, vi } from 'vitest'
import type { SubmissionDocument } from '../../../shared/submission/sealed-document'
import { sealSubmission } from './seal-submission'
import { SealingError } from './sealing-error'

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

const submission: SubmissionDocument = {
  id: '0b9d7c1e-4f3a-4c2b-9a1d-6e5f4a3b2c1d',
  name: 'Night Owl',
  contact: '@night_owl',
  project_type: null,
  budget: null,
  message: 'A quiet launch.',
  user_agent: 'TestAgent/1.0',
  submitted_at: '2026-11-22T16:20:00.000Z',
}

let staff: string
beforeAll(async () => {
  staff = await identityToRecipient(await generateIdentity())
})
afterEach(() => {
  armorOutput.override = null
})

it('seals as usual when age gives a complete armor', async () => {
  const row = await sealSubmission(submission, [staff])
  expect(row.sealed.startsWith('-----BEGIN AGE ENCRYPTED FILE-----\n')).toBe(true)
  expect(row.sealed.endsWith('-----END AGE ENCRYPTED FILE-----\n')).toBe(true)
})

it.each([
  ['no header', (armored: string) => armored.replace('-----BEGIN AGE ENCRYPTED FILE-----\n', '')],
  ['no footer', (armored: string) => armored.replace('-----END AGE ENCRYPTED FILE-----\n', '')],
  ['neither', () => JSON.stringify(submission)],
  [
    'a header for another format',
    (armored: string) => armored.replace('AGE ENCRYPTED FILE', 'PGP MESSAGE'),
  ],
])('fails closed when what comes back has %s', async (_name, corrupt) => {
  armorOutput.override = corrupt
  const failure = await sealSubmission(submission, [staff]).catch((error: unknown) => error)
  expect(failure).toBeInstanceOf(SealingError)
  expect(failure).toMatchObject({ reason: 'encrypt-failed' })
})
