import { createHash } from 'node:crypto'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { Decrypter, Encrypter } from 'age-encryption'
import { describe, expect, it } from 'vitest'
import { signingKeyOf, signText, verifyText } from '../crypto/signing'
import { deriveReceiptKeys, generateReceipt, readReceipt, type Receipt } from './receipt'

// BIP39's own test vector for 16 bytes of 0x7f: a fixed receipt whose keys must never change, or
// every visitor who kept a receipt would lose their thread.
const FIXED =
  'legal winner thank year wave sausage worth useful legal winner thank yellow' as Receipt

describe('the receipt', () => {
  it('is twelve words of the published BIP39 English list, new each time', () => {
    const receipt = generateReceipt()
    const words = receipt.split(' ')
    expect(words).toHaveLength(12)
    expect(words.every((word) => wordlist.includes(word))).toBe(true)
    expect(generateReceipt()).not.toBe(receipt)
    expect(readReceipt(receipt)).toBe(receipt)
  })

  it('reads back whatever the visitor pasted: case, line breaks, commas and numbering do not matter', () => {
    const pasted =
      ' 1. Legal 2. WINNER, thank\nyear  wave sausage\r\n worth useful legal winner thank yellow '
    expect(readReceipt(pasted)).toBe(FIXED)
  })

  it('says what is wrong with a receipt that cannot be one', () => {
    expect(readReceipt('legal winner thank')).toBe('length')
    expect(readReceipt(FIXED.replace('sausage', 'sausages'))).toBe('unknown-word')
    // Two words swapped: every word is on the list, the checksum is not.
    expect(readReceipt(FIXED.replace('wave sausage', 'sausage wave'))).toBe('checksum')
  })

  it('derives the same keys on every device, and these exact ones for a fixed receipt', async () => {
    const keys = await deriveReceiptKeys(FIXED)
    expect(await deriveReceiptKeys(FIXED)).toEqual(keys)
    expect(keys.identity).toMatch(/^AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}$/)
    expect(keys.recipient).toMatch(/^age1[02-9ac-hj-np-z]{58}$/)
    expect(keys.mailboxToken).toMatch(/^[0-9a-f]{64}$/)
    expect(keys.signingKey).toBe(signingKeyOf(keys.signingSeed))
    const { signingSeed, ...publicAndSecretText } = keys
    expect(signingSeed).toHaveLength(32)
    expect(publicAndSecretText).toMatchInlineSnapshot(`
      {
        "identity": "AGE-SECRET-KEY-1QPPLVQP6NN6C8V8HVA9VWKFUU266F0LVA90UWZUJD49U9HKLDUSQRV2CUQ",
        "mailboxHash": "20bf0cc954e51f8e013c837a349c259797e3801375f4f22995decfc46d272ed1",
        "mailboxToken": "0f3216971f5ca60ecea0a27b96a7c2d3d6ffd33550201a32df286eb0e9e742c0",
        "recipient": "age1y7ckg3l8hddupdhwqlpg2sedhyzwg8d349danrdk4jt67jvhkctsqx7unx",
        "signingKey": "17d79224abdfa18e6cf18a1a5d5e5e0f8307b22e4630de44f3cd7345b2c20fcb",
      }
    `)
  })

  it('keeps only a hash of the mailbox token for the database, and no way back to the key', async () => {
    const keys = await deriveReceiptKeys(FIXED)
    const hash = createHash('sha256').update(Buffer.from(keys.mailboxToken, 'hex')).digest('hex')
    expect(keys.mailboxHash).toBe(hash)
    expect(keys.mailboxToken).not.toContain(keys.mailboxHash)
    const other = await deriveReceiptKeys(generateReceipt())
    expect(other.mailboxToken).not.toBe(keys.mailboxToken)
    expect(other.recipient).not.toBe(keys.recipient)
    expect(other.signingKey).not.toBe(keys.signingKey)
  })

  it('signs follow-ups with a key of its own, which its public half alone checks', async () => {
    const keys = await deriveReceiptKeys(FIXED)
    const signature = signText('a follow-up', keys.signingSeed)
    expect(verifyText('a follow-up', signature, [keys.signingKey])).toBe(true)
    const other = await deriveReceiptKeys(generateReceipt())
    expect(verifyText('a follow-up', signature, [other.signingKey])).toBe(false)
  })

  it('opens what was sealed to its recipient, as a reply is', async () => {
    const keys = await deriveReceiptKeys(FIXED)
    const encrypter = new Encrypter()
    encrypter.addRecipient(keys.recipient)
    const sealed = await encrypter.encrypt('a sealed reply')
    const decrypter = new Decrypter()
    decrypter.addIdentity(keys.identity)
    expect(await decrypter.decrypt(sealed, 'text')).toBe('a sealed reply')
  })
})
