import { Decrypter, armor, generateIdentity, identityToRecipient } from 'age-encryption'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { NIGHT_OWL } from '../../../shared/submission/submission-test-fixtures'
import { keySetId } from '../../../shared/submission/sealed-row'
import { sealSubmission, preload } from './seal-submission'
import { SealError } from '../../../shared/crypto/seal-error'

const submission = NIGHT_OWL

async function newIdentity(): Promise<{ identity: string; recipient: string }> {
  const identity = await generateIdentity()
  return { identity, recipient: await identityToRecipient(identity) }
}

async function open(sealed: string, identity: string): Promise<unknown> {
  const decrypter = new Decrypter()
  decrypter.addIdentity(identity)
  return JSON.parse(await decrypter.decrypt(armor.decode(sealed), 'text'))
}

let staff: { identity: string; recipient: string }
beforeAll(async () => {
  staff = await newIdentity()
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('sealSubmission', () => {
  it('seals to an age armor that the identity opens to every value exactly', async () => {
    const doc = {
      ...submission,
      name: '🦉 ليلى Night-Owl',
      contact: 'owl@example.org',
      message: `שלום 🚀 ${'brief '.repeat(830)}`.slice(0, 5000),
    }
    const row = await sealSubmission(doc, [staff.recipient])

    expect(Object.keys(row).sort()).toEqual(['id', 'key_id', 'sealed'])
    expect(row.id).toBe(doc.id)
    expect(row.key_id).toBe(await keySetId([staff.recipient]))
    expect(row.sealed.startsWith('-----BEGIN AGE ENCRYPTED FILE-----\n')).toBe(true)
    expect(row.sealed.endsWith('-----END AGE ENCRYPTED FILE-----\n')).toBe(true)
    for (const value of [doc.name, doc.contact, doc.message.slice(0, 40), doc.user_agent]) {
      expect(row.sealed).not.toContain(value)
    }

    const opened = (await open(row.sealed, staff.identity)) as Record<string, unknown>
    const { pad, ...fields } = opened
    expect(fields).toEqual({ v: 1, ...doc, attachments: [] })
    expect(typeof pad).toBe('string')
  })

  it('seals once for several recipients, and each of them can open it', async () => {
    const rotation = await newIdentity()
    const escrow = await newIdentity()
    const recipients = [staff.recipient, rotation.recipient, escrow.recipient]
    const row = await sealSubmission(submission, recipients)

    expect(row.key_id).toBe(await keySetId(recipients))
    for (const { identity } of [staff, rotation, escrow]) {
      expect(await open(row.sealed, identity)).toMatchObject({ ...submission, v: 1 })
    }
    const stranger = await newIdentity()
    await expect(open(row.sealed, stranger.identity)).rejects.toThrow()
  })

  it('gives ciphertexts of the same length for briefs in the same bucket', async () => {
    const short = await sealSubmission({ ...submission, message: 'a' }, [staff.recipient])
    const longer = await sealSubmission({ ...submission, message: 'a'.repeat(500) }, [
      staff.recipient,
    ])
    expect(short.sealed.length).toBe(longer.sealed.length)
  })
})

describe('sealing fails closed', () => {
  async function failure(run: () => Promise<unknown>): Promise<SealError> {
    const error = await run().then(
      () => {
        throw new Error('expected a SealError')
      },
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(SealError)
    const sealError = error as SealError
    // The visitor's words never travel in an error.
    expect(sealError.message).not.toContain(submission.message)
    return sealError
  }

  it('refuses to seal without Web Crypto', async () => {
    vi.stubGlobal('crypto', undefined)
    expect((await failure(() => sealSubmission(submission, [staff.recipient]))).reason).toBe(
      'no-webcrypto',
    )
  })

  it('refuses to seal when Web Crypto has no subtle API (an insecure context)', async () => {
    vi.stubGlobal('crypto', {
      getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto),
    })
    expect((await failure(() => sealSubmission(submission, [staff.recipient]))).reason).toBe(
      'no-webcrypto',
    )
  })

  it('gives no key_id for no recipients, or for one that is not a key', async () => {
    await expect(sealSubmission(submission, [])).rejects.toMatchObject({ reason: 'no-recipients' })
    await expect(sealSubmission(submission, ['age1nope'])).rejects.toMatchObject({
      reason: 'invalid-recipient',
    })
  })

  it('refuses to seal to nobody', async () => {
    expect((await failure(() => sealSubmission(submission, []))).reason).toBe('no-recipients')
  })

  it('refuses a malformed recipient, even beside a valid one', async () => {
    const typo = `${staff.recipient.slice(0, -1)}${staff.recipient.endsWith('q') ? 'p' : 'q'}`
    for (const bad of [
      typo,
      'age1short',
      staff.recipient.toUpperCase(),
      ` ${staff.recipient}`,
      'AGE-SECRET-KEY-1X',
    ]) {
      expect((await failure(() => sealSubmission(submission, [staff.recipient, bad]))).reason).toBe(
        'invalid-recipient',
      )
    }
  })

  it('reports a failure of age itself as encrypt-failed', async () => {
    const encrypt = vi
      .spyOn((await import('age-encryption')).Encrypter.prototype, 'encrypt')
      .mockRejectedValue(new Error('boom'))
    try {
      const error = await failure(() => sealSubmission(submission, [staff.recipient]))
      expect(error.reason).toBe('encrypt-failed')
      expect(error.cause).toBeInstanceOf(Error)
    } finally {
      encrypt.mockRestore()
    }
  })
})

describe('preload (the throwaway seal)', () => {
  it('runs age once and never throws, even where sealing is impossible', async () => {
    await expect(preload()).resolves.toBeUndefined()
    vi.stubGlobal('crypto', undefined)
    await expect(preload()).resolves.toBeUndefined()
  })
})
