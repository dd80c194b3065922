// The visitor's reader, with real age and the contract's modules: a thread as read_thread returns
// it (the inquiry, a reply without files, a reply with files, the visitor's own message),
// opened with the receipt; then a reply's file fetched from Storage (a stand-in client that
// records the header it was given), opened, checked and handed over as a download.
import { Encrypter, armor, generateIdentity, identityToRecipient } from 'age-encryption'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { deriveReceiptKeys, generateReceipt } from '../../shared/conversation/receipt'
import {
  CONVERSATION_FILES_BUCKET,
  MAILBOX_TOKEN_HEADER,
  replyFileObjectName,
} from '../../shared/conversation/reply-files'
import {
  buildThreadMessage,
  messageHash,
  padThreadMessage,
} from '../../shared/conversation/thread-message'
import { agencySigningSeed, asSigningSeed, signingKeyOf } from '../../shared/crypto/signing'
import { siteEnv, submissionKeysFor } from '../../lib/env'
import { buildDocument, padDocument } from '../../shared/submission/sealed-document'
import type { ThreadView } from '../../shared/database-types'

const readThread = vi.fn()
vi.mock('../../lib/backend', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/backend')>()),
  readThread: (token: string) => readThread(token),
}))
const storage = { bucket: '', header: [] as string[], object: '', answer: {} as unknown }
vi.mock('../../lib/supabase', () => ({
  supabase: {
    storage: {
      from: (bucket: string) => {
        storage.bucket = bucket
        const api = {
          setHeader: (name: string, value: string) => ((storage.header = [name, value]), api),
          download: async (object: string) => ((storage.object = object), storage.answer),
        }
        return api
      },
    },
  },
}))
const saved: { file: Blob; name: string }[] = []
vi.mock('../../shared/files/save-file-browser', () => ({
  downloadBlob: (file: Blob, name: string) => saved.push({ file, name }),
}))

const { downloadReplyFile, openConversation } = await import('./open-conversation')

const filler = (length: number) => 'A'.repeat(length)
const INQUIRY = '0b9d7c1e-4f3a-4c2b-9a1d-6e5f4a3b2c1d'
const REPLY = '5d41402a-bc4b-4a76-b971-9d911017c592'
const PLAIN_REPLY = '6f1e8c2a-0b3d-4e5f-8a9b-0c1d2e3f4a5b'
const FOLLOW_UP = '7a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d'

let agency: { identity: string; recipient: string }
const receipt = generateReceipt()
let keys: Awaited<ReturnType<typeof deriveReceiptKeys>>
const plain = new TextEncoder().encode('The signed deck.')
const file = () => ({
  object: replyFileObjectName(INQUIRY, REPLY, '00000000-0000-4000-8000-000000000001'),
  name: 'Deck (signed).pdf',
  type: 'application/pdf',
  size: plain.byteLength,
  sha256: bytesToHex(sha256(plain)),
})

async function seal(data: string | Uint8Array, recipients: string[]) {
  const encrypter = new Encrypter()
  for (const recipient of recipients) encrypter.addRecipient(recipient)
  return encrypter.encrypt(data)
}
const sealText = async (text: string, recipients: string[]) =>
  armor.encode(await seal(text, recipients))

beforeAll(async () => {
  const identity = await generateIdentity()
  agency = { identity, recipient: await identityToRecipient(identity) }
  keys = await deriveReceiptKeys(receipt)
  // The build's keys: the agency's recipient and the signing key derived from its identity.
  siteEnv.submissionKeys = await submissionKeysFor(
    [agency.recipient],
    [signingKeyOf(agencySigningSeed(identity)!)],
  )
})
afterEach(() => {
  saved.length = 0
  vi.restoreAllMocks()
})

/** Who seals each message: by default its own side's key; a test may have a forger seal one. */
async function thread(forged: { reply?: boolean; followUp?: boolean } = {}): Promise<ThreadView> {
  const both = [agency.recipient, keys.recipient]
  const forger = asSigningSeed(new Uint8Array(32).fill(9))
  const agencySeed = forged.reply ? forger : agencySigningSeed(agency.identity)!
  const visitorSeed = forged.followUp ? forger : keys.signingSeed
  const document = buildDocument(
    { name: 'Ada', contact: '@ada', project_type: null, budget: null, message: 'Our launch.' },
    {
      id: INQUIRY,
      now: Date.now(),
      userAgent: 'test',
      replyTo: keys.recipient,
      signingKey: keys.signingKey,
    },
  )
  const plainReply = buildThreadMessage('No files with this one.', {
    id: PLAIN_REPLY,
    inquiryId: INQUIRY,
    from: 'agency',
    now: Date.now(),
    place: { seq: 1, answers: null },
  })
  const withFiles = buildThreadMessage('Here is the deck.', {
    id: REPLY,
    inquiryId: INQUIRY,
    from: 'agency',
    now: Date.now(),
    attachments: [file()],
    place: { seq: 2, answers: messageHash(plainReply) },
  })
  const followUp = buildThreadMessage('Thanks!', {
    id: FOLLOW_UP,
    inquiryId: INQUIRY,
    from: 'visitor',
    now: Date.now(),
    place: { seq: 1, answers: messageHash(withFiles) },
  })
  const row = (id: string, direction: 'visitor' | 'agency', sealed: string) => ({
    id,
    direction,
    sealed,
    created_at: new Date().toISOString(),
  })
  return {
    reference: INQUIRY.slice(0, 8),
    status: 'answered',
    delete_by: null,
    messages: [
      row(INQUIRY, 'visitor', await sealText(padDocument(document, filler), both)),
      row(
        PLAIN_REPLY,
        'agency',
        await sealText(padThreadMessage(plainReply, agencySeed, filler), both),
      ),
      row(REPLY, 'agency', await sealText(padThreadMessage(withFiles, agencySeed, filler), both)),
      row(
        FOLLOW_UP,
        'visitor',
        await sealText(padThreadMessage(followUp, visitorSeed, filler), both),
      ),
    ],
  }
}

async function opened(forged: Parameters<typeof thread>[0] = {}) {
  readThread.mockResolvedValueOnce({ kind: 'thread', thread: await thread(forged) })
  const outcome = await openConversation(receipt)
  if (outcome.kind !== 'opened') throw new Error(`not opened: ${outcome.kind}`)
  return outcome.conversation
}

describe('openConversation', () => {
  it('opens every message with the receipt, and lists the files of the agency’s replies only', async () => {
    const conversation = await opened()
    expect(readThread).toHaveBeenCalledWith(keys.mailboxToken)
    expect(conversation.messages.map(({ from, body, files }) => ({ from, body, files }))).toEqual([
      { from: 'visitor', body: 'Our launch.', files: [] },
      { from: 'agency', body: 'No files with this one.', files: [] },
      { from: 'agency', body: 'Here is the deck.', files: [file()] },
      { from: 'visitor', body: 'Thanks!', files: [] },
    ])
    expect(conversation.messages.map((message) => message.unsigned)).toEqual([
      false,
      false,
      false,
      false,
    ])
    expect(conversation.messages.map((message) => message.placed?.seq ?? null)).toEqual([
      null,
      1,
      2,
      1,
    ])
  })

  it('shows no text of a reply the agency did not sign, nor of a follow-up the receipt did not sign', async () => {
    const replies = await opened({ reply: true })
    expect(replies.messages.map(({ body, unsigned }) => ({ body, unsigned }))).toEqual([
      { body: 'Our launch.', unsigned: false },
      { body: null, unsigned: true },
      { body: null, unsigned: true },
      { body: 'Thanks!', unsigned: false },
    ])
    const followUps = await opened({ followUp: true })
    expect(followUps.messages.at(-1)).toMatchObject({ body: null, unsigned: true, files: [] })
  })
})

describe('downloadReplyFile', () => {
  it('fetches the file with the mailbox token in its header, opens and checks it, saves it under its name', async () => {
    const conversation = await opened()
    storage.answer = {
      data: new Blob([(await seal(plain, [agency.recipient, keys.recipient])) as BlobPart]),
      error: null,
    }
    expect(await downloadReplyFile(file(), conversation)).toBe('opened')
    expect(storage).toMatchObject({
      bucket: CONVERSATION_FILES_BUCKET,
      header: [MAILBOX_TOKEN_HEADER, keys.mailboxToken],
      object: file().object,
    })
    expect(saved.map(({ name }) => name)).toEqual(['Deck (signed).pdf'])
    expect(new Uint8Array(await saved[0]!.file.arrayBuffer())).toEqual(plain)
    expect(saved[0]!.file.type).toBe('application/pdf')
  })

  it('saves nothing when the file is not the one the reply lists, or not sealed to the receipt', async () => {
    const conversation = await opened()
    const other = new TextEncoder().encode('The signed deck, revised.')
    storage.answer = {
      data: new Blob([(await seal(other, [keys.recipient])) as BlobPart]),
      error: null,
    }
    expect(await downloadReplyFile(file(), conversation)).toBe('mismatch')
    storage.answer = {
      data: new Blob([(await seal(plain, [agency.recipient])) as BlobPart]),
      error: null,
    }
    expect(await downloadReplyFile(file(), conversation)).toBe('other-key')
    storage.answer = { data: new Blob(['not age']), error: null }
    expect(await downloadReplyFile(file(), conversation)).toBe('damaged')
    expect(saved).toEqual([])
  })

  it('says not found, offline or failed from Storage’s answer, and too large before fetching', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const conversation = await opened()
    storage.answer = {
      data: null,
      error: { status: 400, statusCode: '404', message: 'Object not found' },
    }
    expect(await downloadReplyFile(file(), conversation)).toBe('not-found')
    storage.answer = { data: null, error: { message: 'Failed to fetch' } }
    expect(await downloadReplyFile(file(), conversation)).toBe('offline')
    storage.answer = { data: null, error: { status: 500, message: 'Internal' } }
    expect(await downloadReplyFile(file(), conversation)).toBe('failed')
    storage.object = ''
    // A device this small is not sold; the branch is what counts: checked before any request.
    vi.stubGlobal('navigator', { deviceMemory: 0.125, onLine: true })
    try {
      expect(await downloadReplyFile({ ...file(), size: 25 * 1024 * 1024 }, conversation)).toBe(
        'too-large',
      )
    } finally {
      vi.unstubAllGlobals()
    }
    expect(storage.object).toBe('')
    expect(saved).toEqual([])
  })
})
