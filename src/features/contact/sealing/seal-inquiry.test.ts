// The inquiry as the form sends it: a receipt made in the crypto chunk, the document version 2
// with the visitor's recipient inside, sealed to the agency and the visitor, the mailbox hash.
import { Decrypter, armor, generateIdentity, identityToRecipient } from 'age-encryption'
import { beforeAll, describe, expect, it } from 'vitest'
import { deriveReceiptKeys, readReceipt } from '../../../shared/conversation/receipt'
import { keySetId } from '../../../shared/submission/sealed-row'
import { DRAFT, TEST_RECEIPT } from '../contact-test-fixtures'
import { sealInquiry } from './seal-submission'

async function open(sealed: string, identity: string): Promise<Record<string, unknown>> {
  const decrypter = new Decrypter()
  decrypter.addIdentity(identity)
  return JSON.parse(await decrypter.decrypt(armor.decode(sealed), 'text')) as Record<
    string,
    unknown
  >
}

let agency: { identity: string; recipient: string }
beforeAll(async () => {
  const identity = await generateIdentity()
  agency = { identity, recipient: await identityToRecipient(identity) }
})

describe('sealInquiry', () => {
  it('makes a receipt and seals the version 2 document to the agency and to the receipt', async () => {
    const { row, receipt } = await sealInquiry(DRAFT, [agency.recipient], null)
    expect(readReceipt(receipt)).toBe(receipt)
    const keys = await deriveReceiptKeys(receipt)

    expect(Object.keys(row).sort()).toEqual(['id', 'key_id', 'mailbox_hash', 'sealed'])
    expect(row.id).toBe(DRAFT.id)
    // The agency's set alone: the database knows that set, never the visitor's key.
    expect(row.key_id).toBe(await keySetId([agency.recipient]))
    // bytea as PostgREST takes it: a backslash, x, the SHA-256 of the token in hex.
    expect(row.mailbox_hash).toBe(`\\x${keys.mailboxHash}`)

    for (const identity of [agency.identity, keys.identity]) {
      const document = await open(row.sealed, identity)
      expect(document).toMatchObject({
        v: 2,
        id: DRAFT.id,
        ...DRAFT.fields,
        reply_to: keys.recipient,
      })
    }
    // Nothing of the receipt, its key or its token travels in the row.
    const wire = JSON.stringify(row)
    for (const secret of [receipt, keys.identity, keys.mailboxToken, ...receipt.split(' ')]) {
      expect(wire).not.toContain(secret)
    }
  })

  it('keeps the receipt of an earlier try of the same draft', async () => {
    const { row, receipt } = await sealInquiry(DRAFT, [agency.recipient], TEST_RECEIPT)
    expect(receipt).toBe(TEST_RECEIPT)
    const keys = await deriveReceiptKeys(TEST_RECEIPT)
    expect(row.mailbox_hash).toBe(`\\x${keys.mailboxHash}`)
    expect(await open(row.sealed, keys.identity)).toMatchObject({ reply_to: keys.recipient })
  })

  it('makes a new receipt for every new draft', async () => {
    const first = await sealInquiry(DRAFT, [agency.recipient], null)
    const second = await sealInquiry(DRAFT, [agency.recipient], null)
    expect(first.receipt).not.toBe(second.receipt)
  })

  it('fails closed with no agency recipient, making no receipt', async () => {
    await expect(sealInquiry(DRAFT, [], null)).rejects.toMatchObject({ reason: 'no-recipients' })
  })
})
