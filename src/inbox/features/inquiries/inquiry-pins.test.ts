// @vitest-environment node
import 'fake-indexeddb/auto'
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { openDB } from 'idb'
import { describe, expect, it } from 'vitest'
import { sealSubmission } from '../../../features/contact/sealing/seal-submission'
import { buildDocument } from '../../../shared/submission/sealed-document'
import { NIGHT_OWL } from '../../../shared/submission/submission-test-fixtures'
import { openInquiry } from './inquiries'
import type { InquiryRow } from './inquiry'
import { pinBook } from './inquiry-pins'

const FIELDS = {
  name: 'Ada',
  contact: '@ada_l',
  message: 'Hello',
  project_type: null,
  budget: null,
}

async function agency() {
  const identity = await generateIdentity()
  return { identities: [identity], recipient: await identityToRecipient(identity) }
}

/** A row as the database holds it, its document sealed to `recipient` with only public keys. */
async function sealedRow(id: string, recipient: string, replyTo: string, fields = FIELDS) {
  const document = buildDocument(fields, {
    id,
    now: Date.now(),
    userAgent: 'test',
    replyTo,
    signingKey: NIGHT_OWL.signing_key,
  })
  const row: InquiryRow = {
    status: 'new',
    created_at: new Date().toISOString(),
    responded_at: null,
    completed_at: null,
    responded_by: null,
    awaiting_reply_since: null,
    ...(await sealSubmission(document, [recipient])),
  }
  return row
}

async function attackerReplyTo() {
  return identityToRecipient(await generateIdentity())
}

describe('the inquiry as this device first opened it', () => {
  it('refuses a document whose id is another row’s (a ciphertext copied into this row)', async () => {
    const { identities, recipient } = await agency()
    const original = await sealedRow(crypto.randomUUID(), recipient, NIGHT_OWL.reply_to)
    const copied = { ...original, id: crypto.randomUUID() }
    expect((await openInquiry(copied, identities, new Set())).opened).toEqual({
      problem: 'wrong-id',
    })
    expect('document' in (await openInquiry(original, identities, new Set())).opened).toBe(true)
  })

  it('warns when the row later holds another document, on every later load of this device', async () => {
    const { identities, recipient } = await agency()
    const id = crypto.randomUUID()
    const genuine = await sealedRow(id, recipient, NIGHT_OWL.reply_to)
    const first = await pinBook(identities)
    const opened = await first.check(await openInquiry(genuine, identities, new Set()))
    expect('document' in opened.opened && opened.opened.document.reply_to).toBe(NIGHT_OWL.reply_to)
    await first.keep()

    // Replaced by someone with the agency's public key alone: same id, their own reply_to.
    const forged = await sealedRow(id, recipient, await attackerReplyTo(), {
      ...FIELDS,
      message: 'Please reply to this address instead',
    })
    const later = await pinBook(identities)
    const replaced = await later.check(await openInquiry(forged, identities, new Set()))
    expect(replaced.opened).toEqual({ problem: 'replaced' })
    // The genuine document still opens as it did.
    const again = await later.check(await openInquiry(genuine, identities, new Set()))
    expect('document' in again.opened).toBe(true)
  })

  it('keeps the pins sealed to the key, so the stored record names no inquiry', async () => {
    const { identities, recipient } = await agency()
    const id = crypto.randomUUID()
    const book = await pinBook(identities)
    await book.check(
      await openInquiry(await sealedRow(id, recipient, NIGHT_OWL.reply_to), identities, new Set()),
    )
    await book.keep()
    const stored = (await (await openDB('inbox-key')).get('key', 'pins')) as string
    expect(stored).toContain('BEGIN AGE ENCRYPTED FILE')
    expect(stored).not.toContain(id)
  })

  it('does not pin what it could not open, so a later genuine document is not taken for a replacement', async () => {
    const { identities, recipient } = await agency()
    const id = crypto.randomUUID()
    const book = await pinBook(identities)
    const damaged = await sealedRow(id, recipient, NIGHT_OWL.reply_to)
    await book.check(await openInquiry({ ...damaged, sealed: 'not armor' }, identities, new Set()))
    await book.keep()
    const genuine = await (
      await pinBook(identities)
    ).check(await openInquiry(damaged, identities, new Set()))
    expect('document' in genuine.opened).toBe(true)
  })
})
