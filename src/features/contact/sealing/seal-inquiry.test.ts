// The inquiry as the form sends it: a receipt made in the crypto chunk, the document with the
// visitor's recipient inside, sealed to the agency and the visitor, the mailbox hash.
import { Decrypter, armor, generateIdentity, identityToRecipient } from 'age-encryption'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { deriveReceiptKeys, readReceipt } from '../../../shared/conversation/receipt'
import { loadWasmSealEngine } from '../../../shared/crypto/load-wasm-seal-engine'
import { LIMITS } from '../../../shared/submission/fields'
import { keySetId } from '../../../shared/submission/sealed-row'
import { DRAFT, TEST_RECEIPT } from '../contact-test-fixtures'
import { preloadFileSealing, sealInquiry } from './seal-submission'

// The real loader, each engine it gives recording which engine sealed a chunk.
const sealedBy = vi.hoisted(() => [] as string[])
vi.mock('../../../shared/crypto/load-wasm-seal-engine', async (importOriginal) => {
  const actual =
    await importOriginal<typeof import('../../../shared/crypto/load-wasm-seal-engine')>()
  return {
    loadWasmSealEngine: vi.fn(async () => {
      const engine = await actual.loadWasmSealEngine()
      return {
        ...engine,
        seal: (...args: Parameters<typeof engine.seal>) => {
          sealedBy.push(engine.name)
          return engine.seal(...args)
        },
      }
    }),
  }
})

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
  it('makes a receipt and seals the document to the agency and to the receipt', async () => {
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
        v: 1,
        id: DRAFT.id,
        ...DRAFT.fields,
        reply_to: keys.recipient,
        attachments: [],
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

  it('seals each file on its own to the agency, lists it in the document, and reuses it on a retry', async () => {
    const deck = new File(['%PDF-1.7 deck'], 'Deck – Q3.pdf', { type: 'application/pdf' })
    const shot = new File([new Uint8Array(70_000).fill(7)], 'shot.png', { type: 'image/png' })
    let reported = 0
    const first = await sealInquiry(
      { ...DRAFT, files: [deck, shot] },
      [agency.recipient],
      null,
      [],
      (bytes) => (reported += bytes),
    )
    expect(reported).toBe(deck.size + shot.size)
    const document = await open(first.row.sealed, agency.identity)
    const listed = document.attachments as Array<Record<string, unknown>>
    expect(listed.map(({ name, type, size }) => ({ name, type, size }))).toEqual([
      { name: 'Deck – Q3.pdf', type: 'application/pdf', size: deck.size },
      { name: 'shot.png', type: 'image/png', size: shot.size },
    ])
    expect(first.files.map((file) => file.attachment)).toEqual(listed)
    for (const [index, file] of first.files.entries()) {
      expect(file.attachment.object).toMatch(new RegExp(`^${DRAFT.id}/[0-9a-f-]{36}$`))
      // The agency opens the file; the visitor's receipt does not (it opens the inquiry only).
      const decrypter = new Decrypter()
      decrypter.addIdentity(agency.identity)
      const plain = await decrypter.decrypt(new Uint8Array(await file.ciphertext.arrayBuffer()))
      expect(plain.byteLength).toBe([deck, shot][index]!.size)
      const keys = await deriveReceiptKeys(first.receipt)
      const visitor = new Decrypter()
      visitor.addIdentity(keys.identity)
      await expect(
        visitor.decrypt(new Uint8Array(await file.ciphertext.arrayBuffer())),
      ).rejects.toThrow()
    }
    // Neither the name nor the type is anywhere but inside the seal.
    const outside = JSON.stringify({
      row: first.row,
      objects: first.files.map((f) => f.attachment.object),
    })
    expect(outside).not.toContain('Deck')
    expect(outside).not.toContain('pdf')

    const retry = await sealInquiry(
      { ...DRAFT, files: [deck, shot] },
      [agency.recipient],
      first.receipt,
      first.files,
    )
    expect(retry.files).toEqual(first.files)
  })

  it('seals files with the WebAssembly engine where the page allows it, and loads none without files', async () => {
    vi.mocked(loadWasmSealEngine).mockClear()
    sealedBy.length = 0
    await sealInquiry(DRAFT, [agency.recipient], null)
    expect(loadWasmSealEngine).not.toHaveBeenCalled()
    const file = new File([new Uint8Array(200_000)], 'big.bin')
    await sealInquiry({ ...DRAFT, files: [file] }, [agency.recipient], null)
    expect(loadWasmSealEngine).toHaveBeenCalledTimes(1)
    // 200,000 bytes: three full 64 KiB chunks and a last one, all sealed in WebAssembly.
    expect(sealedBy).toEqual(['wasm', 'wasm', 'wasm', 'wasm'])
  })

  it('starts loading the file engine when asked to (a file was attached)', () => {
    vi.mocked(loadWasmSealEngine).mockClear()
    preloadFileSealing()
    expect(loadWasmSealEngine).toHaveBeenCalledTimes(1)
  })

  it('lists a file whose name or type a reader would refuse as one it accepts', async () => {
    const long = new File(['deck'], `${'Quarterly token plan '.repeat(20)}.pdf`, {
      type: `application/${'x'.repeat(300)}`,
    })
    const { row } = await sealInquiry({ ...DRAFT, files: [long] }, [agency.recipient], null)
    const [listed] = (await open(row.sealed, agency.identity)).attachments as Array<
      Record<string, unknown>
    >
    // The schema every reader opens documents with takes 255 characters of each.
    expect((listed!.name as string).length).toBe(255)
    expect(listed!.name).toMatch(/^Quarterly token plan .*\.pdf$/)
    expect(listed!.type).toBe('')
  })

  it('says a brief too long beside its files’ names before sealing any file', async () => {
    // Every field at its limit in characters JSON escapes (six bytes each in the document), and
    // five files with such names: more than the database stores. Browsers pass such names on.
    const escaped = (length: number) => '\u0001'.repeat(length)
    const fields = {
      ...DRAFT.fields,
      name: escaped(LIMITS.name),
      contact: escaped(LIMITS.contact),
      message: escaped(LIMITS.message),
    }
    const files = Array.from(
      { length: 5 },
      (_, index) => new File(['x'], `${escaped(250)}${index}.pdf`, { type: 'application/pdf' }),
    )
    const draft = { ...DRAFT, fields, userAgent: escaped(LIMITS.userAgent) }
    let sealedBytes = 0
    await expect(
      sealInquiry({ ...draft, files }, [agency.recipient], null, [], (bytes) => {
        sealedBytes += bytes
      }),
    ).rejects.toMatchObject({ name: 'SealError', reason: 'too-long' })
    expect(sealedBytes).toBe(0)
    // The same brief with the files renamed goes.
    const renamed = files.map((file, index) => new File([file], `deck-${index}.pdf`))
    await expect(
      sealInquiry({ ...draft, files: renamed }, [agency.recipient], null),
    ).resolves.toMatchObject({ row: { id: DRAFT.id } })
  })

  it('fails closed with no agency recipient, making no receipt', async () => {
    await expect(sealInquiry(DRAFT, [], null)).rejects.toMatchObject({ reason: 'no-recipients' })
  })
})
