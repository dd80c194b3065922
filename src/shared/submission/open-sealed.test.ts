// @vitest-environment node
import { armor, Encrypter, generateIdentity, identityToRecipient } from 'age-encryption'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { sealedSubmissionOpener } from './open-sealed'
import { buildDocument, padDocument } from './sealed-document'
import { NIGHT_OWL } from './submission-test-fixtures'

/** A row's `sealed` as the form makes it: the padded document, an age armor to `recipient`. */
async function sealedTo(recipient: string, name: string): Promise<string> {
  const document = buildDocument(
    { name, contact: '@ada_l', message: 'Hello', project_type: null, budget: null },
    {
      id: crypto.randomUUID(),
      now: Date.now(),
      userAgent: 'test',
      replyTo: NIGHT_OWL.reply_to,
      signingKey: NIGHT_OWL.signing_key,
    },
  )
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient)
  return armor.encode(await encrypter.encrypt(padDocument(document, (n) => 'a'.repeat(n))))
}

const pkcs8Imports = (importKey: { mock: { calls: unknown[][] } }) =>
  importKey.mock.calls.filter(([format]) => format === 'pkcs8').length

afterEach(() => vi.restoreAllMocks())

describe('sealedSubmissionOpener', () => {
  it('opens many rows with an X25519 identity imported into WebCrypto once, not once per row', async () => {
    const mine = await generateIdentity()
    const theirs = await generateIdentity()
    const recipient = await identityToRecipient(mine)
    const rows = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((n) => sealedTo(recipient, n)))
    const foreign = await sealedTo(await identityToRecipient(theirs), 'F')

    const importKey = vi.spyOn(crypto.subtle, 'importKey')
    const open = sealedSubmissionOpener([mine])
    const opened = await Promise.all(rows.map(open))
    expect(opened.map((row) => 'document' in row && row.document.name)).toEqual([
      'A',
      'B',
      'C',
      'D',
      'E',
    ])
    expect(await open(foreign)).toMatchObject({ problem: 'other-key' })
    // One import of the private key (and one more where typage reads the string once, to check
    // that both give the same public key); then each row imports only its sender's share.
    expect(pkcs8Imports(importKey)).toBe(2)
  })

  it('opens with the identity string where WebCrypto has no X25519 (typage computes it itself)', async () => {
    const mine = await generateIdentity()
    const sealed = await sealedTo(await identityToRecipient(mine), 'Ada')
    const importKey = crypto.subtle.importKey.bind(crypto.subtle)
    vi.spyOn(crypto.subtle, 'importKey').mockImplementation((...args: unknown[]) => {
      const algorithm = args[2] as { name?: string } | string
      if ((typeof algorithm === 'string' ? algorithm : algorithm.name) === 'X25519')
        return Promise.reject(new DOMException('X25519 is not supported', 'NotSupportedError'))
      return (importKey as (...a: unknown[]) => Promise<CryptoKey>)(...args)
    })
    const opened = await sealedSubmissionOpener([mine])(sealed)
    expect('document' in opened && opened.document.name).toBe('Ada')
  })
})
