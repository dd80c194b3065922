// @vitest-environment node
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { describe, expect, it } from 'vitest'
import { deriveReceiptKeys, generateReceipt } from '../../../shared/conversation/receipt'
import { replyFileObjectName } from '../../../shared/conversation/reply-files'
import { listedFileName } from '../../../shared/files/file-label'
import { buildThreadMessage, padThreadMessage } from '../../../shared/conversation/thread-message'
import { sealText } from '../../../shared/crypto/seal'
import { asSigningSeed, signingKeyOf } from '../../../shared/crypto/signing'
import { ATTACHMENT_LIMITS } from '../../../shared/submission/attachments'
import { isAgeArmor, SEALED_MAX_CHARS } from '../../../shared/submission/sealed-row'
import { sealReply } from './seal-reply'
import { openThreadMessage, type ThreadRow } from './thread'

const inquiryId = crypto.randomUUID()
const NOW = Date.parse('2026-11-25T12:00:00Z')
const FIRST = { seq: 1, answers: null }
/** The agency's signing key, and the key in the visitor's sealed inquiry. */
const SEED = asSigningSeed(new Uint8Array(32).fill(5))
const VISITOR_SEED = asSigningSeed(new Uint8Array(32).fill(6))
const SIGNERS = { agency: [signingKeyOf(SEED)], visitor: signingKeyOf(VISITOR_SEED) }

async function agencyKey() {
  const identity = await generateIdentity()
  return { identity, recipient: await identityToRecipient(identity) }
}

function agencyRow(id: string, sealed: string): ThreadRow {
  return { id, direction: 'agency', sealed, author_email: 'staff@example.com', created_at: '' }
}

describe('sealReply', () => {
  it('seals a reply that the visitor’s receipt opens, and so does each agency key, alone', async () => {
    const visitor = await deriveReceiptKeys(generateReceipt())
    const [first, second] = [await agencyKey(), await agencyKey()]
    const id = crypto.randomUUID()
    const draft = buildThreadMessage('  Thursday at ten suits us.  ', {
      id,
      inquiryId,
      from: 'agency',
      now: NOW,
      place: FIRST,
    })
    const sealed = await sealReply(
      draft,
      { replyTo: visitor.recipient, agency: [first.recipient, second.recipient] },
      SEED,
    )
    expect(isAgeArmor(sealed)).toBe(true)
    expect(sealed).not.toContain('Thursday')

    for (const identity of [visitor.identity, first.identity, second.identity]) {
      const entry = await openThreadMessage(agencyRow(id, sealed), inquiryId, [identity], SIGNERS)
      expect('message' in entry.opened && entry.opened.message).toMatchObject({
        id,
        inquiry_id: inquiryId,
        from: 'agency',
        body: 'Thursday at ten suits us.',
        sent_at: '2026-11-25T12:00:00.000Z',
      })
    }
    // A key the reply was not sealed to cannot open it, and says so.
    const stranger = await agencyKey()
    const closed = await openThreadMessage(
      agencyRow(id, sealed),
      inquiryId,
      [stranger.identity],
      SIGNERS,
    )
    expect(closed.opened).toEqual({ problem: 'other-key' })
  })

  it('refuses to seal without the agency’s recipients or to a malformed recipient', async () => {
    const visitor = await deriveReceiptKeys(generateReceipt())
    const draft = buildThreadMessage('Hi', {
      id: crypto.randomUUID(),
      inquiryId,
      from: 'agency',
      now: NOW,
      place: FIRST,
    })
    await expect(
      sealReply(draft, { replyTo: visitor.recipient, agency: [] }, SEED),
    ).rejects.toMatchObject({ name: 'SealError', reason: 'no-recipients' })
    await expect(
      sealReply(
        draft,
        { replyTo: 'age1notarecipient', agency: [(await agencyKey()).recipient] },
        SEED,
      ),
    ).rejects.toMatchObject({ name: 'SealError', reason: 'invalid-recipient' })
  })
})

describe('a reply with files', () => {
  /** `count` files whose names are `name` (cut as a message lists them), under the reply's folder. */
  const files = (id: string, count: number, name: string) =>
    Array.from({ length: count }, () => ({
      object: replyFileObjectName(inquiryId, id, crypto.randomUUID()),
      name: listedFileName(name),
      type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      size: ATTACHMENT_LIMITS.bytesPerFile,
      sha256: 'f'.repeat(64),
    }))
  /** The visitor's recipient and ten agency keys: the most a reply is sealed to. */
  const recipients = async () => ({
    replyTo: (await deriveReceiptKeys(generateReceipt())).recipient,
    agency: await Promise.all(
      Array.from({ length: 10 }, async () => (await agencyKey()).recipient),
    ),
  })

  it('lists its files inside the seal, and the longest plain reply fits with five long names', async () => {
    const id = crypto.randomUUID()
    const agency = await agencyKey()
    const listed = files(id, ATTACHMENT_LIMITS.files, `${'Quarterly report '.repeat(20)}.pdf`)
    const to = await recipients()
    const sealed = await sealReply(
      buildThreadMessage('x'.repeat(5000), {
        id,
        inquiryId,
        from: 'agency',
        now: NOW,
        place: FIRST,
        attachments: listed,
      }),
      { ...to, agency: [agency.recipient, ...to.agency.slice(1)] },
      SEED,
    )
    expect(sealed.length).toBeLessThanOrEqual(SEALED_MAX_CHARS)
    expect(sealed).not.toContain('Quarterly')
    const entry = await openThreadMessage(
      agencyRow(id, sealed),
      inquiryId,
      [agency.identity],
      SIGNERS,
    )
    expect('message' in entry.opened && entry.opened.message.attachments).toEqual(listed)
  })

  it('refuses, before anything is stored, a reply too long to seal with its files’ names', async () => {
    const id = crypto.randomUUID()
    // Characters JSON writes as six bytes each, in the body and in five names of 255.
    const escaped = '\u0001'
    const draft = buildThreadMessage(escaped.repeat(5000), {
      id,
      inquiryId,
      from: 'agency',
      now: NOW,
      place: FIRST,
      attachments: files(id, ATTACHMENT_LIMITS.files, escaped.repeat(400)),
    })
    await expect(sealReply(draft, await recipients(), SEED)).rejects.toMatchObject({
      name: 'SealError',
      reason: 'too-long',
    })
  })
})

describe('openThreadMessage', () => {
  it('says a message moved to another row, thread or direction could not be opened', async () => {
    const agency = await agencyKey()
    const id = crypto.randomUUID()
    const sealed = await sealReply(
      buildThreadMessage('Moved', { id, inquiryId, from: 'agency', now: NOW, place: FIRST }),
      { replyTo: (await agencyKey()).recipient, agency: [agency.recipient] },
      SEED,
    )
    const keys = [agency.identity]
    const otherRow = await openThreadMessage(
      agencyRow(crypto.randomUUID(), sealed),
      inquiryId,
      keys,
      SIGNERS,
    )
    expect(otherRow.opened).toEqual({ problem: 'damaged' })
    const otherThread = await openThreadMessage(
      agencyRow(id, sealed),
      crypto.randomUUID(),
      keys,
      SIGNERS,
    )
    expect(otherThread.opened).toEqual({ problem: 'damaged' })
    const asVisitor = await openThreadMessage(
      { ...agencyRow(id, sealed), direction: 'visitor', author_email: null },
      inquiryId,
      keys,
      SIGNERS,
    )
    expect(asVisitor.opened).toEqual({ problem: 'damaged' })
    const notArmor = await openThreadMessage(agencyRow(id, 'plain text'), inquiryId, keys, SIGNERS)
    expect(notArmor.opened).toEqual({ problem: 'damaged' })
    // The row's facts come through; its ciphertext does not.
    expect(otherRow).not.toHaveProperty('sealed')
  })
})

describe('a message sealed by someone with write access and the public keys alone', () => {
  const FORGER = asSigningSeed(new Uint8Array(32).fill(7))

  it('shows as not from the agency: an "agency" reply the agency did not sign', async () => {
    const agency = await agencyKey()
    const visitor = await deriveReceiptKeys(generateReceipt())
    const id = crypto.randomUUID()
    const sealed = await sealReply(
      buildThreadMessage('Pay the deposit to this account.', {
        id,
        inquiryId,
        from: 'agency',
        now: NOW,
        place: FIRST,
      }),
      { replyTo: visitor.recipient, agency: [agency.recipient] },
      FORGER,
    )
    const entry = await openThreadMessage(
      agencyRow(id, sealed),
      inquiryId,
      [agency.identity],
      SIGNERS,
    )
    expect(entry.opened).toEqual({ problem: 'unsigned' })
  })

  it('is refused as the visitor’s: a follow-up not signed with the key in their inquiry', async () => {
    const agency = await agencyKey()
    const id = crypto.randomUUID()
    const followUp = (seed: typeof FORGER) =>
      sealText(
        padThreadMessage(
          buildThreadMessage('Please send the files here instead.', {
            id,
            inquiryId,
            from: 'visitor',
            now: NOW,
            place: FIRST,
          }),
          seed,
          (length) => 'A'.repeat(length),
        ),
        [agency.recipient],
      )
    const row = (sealed: string): ThreadRow => ({
      ...agencyRow(id, sealed),
      direction: 'visitor',
      author_email: null,
    })
    const forged = await openThreadMessage(
      row(await followUp(FORGER)),
      inquiryId,
      [agency.identity],
      SIGNERS,
    )
    expect(forged.opened).toEqual({ problem: 'unsigned' })
    // Signed with the agency's key is no better: a follow-up is the visitor's key's alone.
    const asAgency = await openThreadMessage(
      row(await followUp(SEED)),
      inquiryId,
      [agency.identity],
      SIGNERS,
    )
    expect(asAgency.opened).toEqual({ problem: 'unsigned' })
    const genuine = await openThreadMessage(
      row(await followUp(VISITOR_SEED)),
      inquiryId,
      [agency.identity],
      SIGNERS,
    )
    expect('message' in genuine.opened).toBe(true)
  })
})
