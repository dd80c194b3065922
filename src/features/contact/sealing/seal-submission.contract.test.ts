// The recipient rules the database shares with the sealer (src/shared/submission/README.md: X25519
// recipients only, a typo refused), and the warm-up. The sealing itself is covered in
// seal-submission.test.ts.
import {
  Encrypter,
  generateHybridIdentity,
  generateIdentity,
  identityToRecipient,
} from 'age-encryption'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { NIGHT_OWL } from '../../../shared/submission/submission-test-fixtures'
import { sealSubmission, preload } from './seal-submission'

const submission = NIGHT_OWL

let staff: string
let checksumTypo: string
beforeAll(async () => {
  staff = await identityToRecipient(await generateIdentity())
  // The right shape and alphabet, one letter off: only age's checksum can tell.
  const last = staff.at(-1) === 'q' ? 'p' : 'q'
  checksumTypo = `${staff.slice(0, -1)}${last}`
})

afterEach(() => vi.restoreAllMocks())

describe('recipients', () => {
  it('a recipient with a checksum typo seals nothing, alone or beside a valid one', async () => {
    await expect(sealSubmission(submission, [checksumTypo])).rejects.toMatchObject({
      reason: 'invalid-recipient',
    })
    await expect(sealSubmission(submission, [staff, checksumTypo])).rejects.toMatchObject({
      reason: 'invalid-recipient',
    })
    await expect(sealSubmission(submission, [checksumTypo, staff])).rejects.toMatchObject({
      reason: 'invalid-recipient',
    })
  })

  it('refuses a typo while checking the set, before any key_id or encryption work begins', async () => {
    const digest = vi.spyOn(globalThis.crypto.subtle, 'digest')
    const error = await sealSubmission(submission, [staff, checksumTypo]).catch((e: unknown) => e)
    expect(error).toMatchObject({ reason: 'invalid-recipient' })
    expect((error as Error).cause).toBeUndefined()
    expect(digest).not.toHaveBeenCalled()
  })

  it('refuses a post-quantum (hybrid) recipient: the database registers X25519 recipients only', async () => {
    const hybrid = await identityToRecipient(await generateHybridIdentity())
    // age itself would take it; the sealer must not, or the database would refuse every row.
    expect(() => new Encrypter().addRecipient(hybrid)).not.toThrow()

    await expect(sealSubmission(submission, [hybrid])).rejects.toMatchObject({
      reason: 'invalid-recipient',
    })
    await expect(sealSubmission(submission, [staff, hybrid])).rejects.toMatchObject({
      reason: 'invalid-recipient',
    })
  })
})

describe('preload (the throwaway seal)', () => {
  it('really runs age once, to a recipient nobody holds, so the first real seal is fast', async () => {
    const encrypt = vi.spyOn(Encrypter.prototype, 'encrypt')
    const addRecipient = vi.spyOn(Encrypter.prototype, 'addRecipient')

    await preload()

    expect(encrypt).toHaveBeenCalledTimes(1)
    const recipients = addRecipient.mock.calls.map(([recipient]) => recipient)
    expect(recipients.length).toBeGreaterThan(0)
    for (const recipient of recipients) expect(recipient).toMatch(/^age1[0-9a-z]{58}$/)
  })
})
