/**
 * The contact feature's unit-test data and fakes, written once: a document, sealed rows, the
 * sender's outcomes, a scripted sender, raw access to a fake outbox database, and the form's
 * dependencies. Real age armors live in src/shared/submission/submission-test-fixtures.ts; these
 * rows only need to look like one to the outbox's check.
 */
import { wrap, type IDBPDatabase } from 'idb'
import { vi } from 'vitest'
import type { Receipt } from '../../shared/conversation/receipt'
import type { SealedRow } from '../../shared/database-types'
import type { SubmissionDocument } from '../../shared/submission/sealed-document'
import { NIGHT_OWL } from '../../shared/submission/submission-test-fixtures'
import { OUTBOX_DB_NAME } from '../outbox/outbox-definitions'
import { OUTBOX_STORE } from '../outbox/outbox-store'
import type { OutboxFailureReason, SendQueued } from '../outbox/outbox-types'
import type { OutboxItem, QueuedInquiryRow } from '../outbox/outbox-types'
import type { SendOutcome } from '../outbox/outbox-types'
import type { InquiryDraft, SealedInquiry, SubmitDependencies } from './submit-contact'

/** The tests' clock starts here (epoch ms). */
export const T0 = Date.parse('2025-03-01T09:00:00.000Z')

/** A submission as the form builds it. */
export const DOCUMENT: SubmissionDocument = {
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  name: 'Ada',
  contact: 'ada@example.com',
  project_type: null,
  budget: 'discuss',
  message: 'Launch in Q3.',
  user_agent: 'TestAgent/1.0',
  submitted_at: '2025-03-01T09:00:00.000Z',
  reply_to: NIGHT_OWL.reply_to,
  signing_key: NIGHT_OWL.signing_key,
}

/** What the form hands the sealer for DOCUMENT's fields. */
export const DRAFT: InquiryDraft = {
  fields: {
    name: DOCUMENT.name,
    contact: DOCUMENT.contact,
    project_type: DOCUMENT.project_type,
    budget: DOCUMENT.budget,
    message: DOCUMENT.message,
  },
  id: DOCUMENT.id,
  now: Date.parse(DOCUMENT.submitted_at),
  userAgent: DOCUMENT.user_agent,
}

/** BIP39's published test vector of 12 words: a valid receipt, known to everyone. */
export const TEST_RECEIPT =
  'legal winner thank year wave sausage worth useful legal winner thank yellow' as Receipt

/** A mailbox hash as the row carries it (`\\x` + 64 hex). */
export const MAILBOX_HASH = `\\x${'ab'.repeat(32)}`

/** The armor's frame around `body`: the shape the outbox's record check accepts. */
export const fakeArmor = (body: string) =>
  `-----BEGIN AGE ENCRYPTED FILE-----\n${body}\n-----END AGE ENCRYPTED FILE-----\n`

const KEY_ID = '0123456789abcdef'

/** What a sealer would return for `document`. */
export const sealedFor = ({ id }: Pick<SubmissionDocument, 'id'>): SealedRow => ({
  id,
  key_id: KEY_ID,
  sealed: fakeArmor('YWdl'),
})

/** What the sealer would return for `draft`: its row with a mailbox hash, and the receipt. */
export const sealedInquiryFor = ({ id }: Pick<InquiryDraft, 'id'>): SealedInquiry => ({
  row: { ...sealedFor({ id }), mailbox_hash: MAILBOX_HASH },
  receipt: TEST_RECEIPT,
  files: [],
})

/** Three sealed rows with their mailbox hash, queued in this order where a test needs several. */
export const ADA: QueuedInquiryRow = {
  id: '0b6f1a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  key_id: KEY_ID,
  sealed: fakeArmor('YWRh'),
  mailbox_hash: MAILBOX_HASH,
}
export const BOB: QueuedInquiryRow = {
  id: '1c7a2b63-4d5e-4f60-9b0c-1d2e3f4a5b6c',
  key_id: KEY_ID,
  sealed: fakeArmor('Ym9i'),
  mailbox_hash: MAILBOX_HASH,
}
export const CY: QueuedInquiryRow = {
  id: '2d8b3c74-5e6f-4071-8c1d-2e3f4a5b6c7d',
  key_id: KEY_ID,
  sealed: fakeArmor('Y3k'),
  mailbox_hash: MAILBOX_HASH,
}

/** One of each outcome the sender answers with. */
export const DELIVERED = { kind: 'delivered' } satisfies SendOutcome
export const NO_ANSWER = {
  kind: 'no-answer',
  reason: 'noAnswer',
  detail: 'HTTP 0: TypeError: Failed to fetch',
} satisfies SendOutcome
export const SERVER_ERROR = {
  kind: 'server-error',
  reason: 'serverError',
  detail: 'HTTP 500 XX000: boom',
} satisfies SendOutcome
export const REFUSED = {
  kind: 'refused',
  reason: 'staleKey',
  detail: 'HTTP 409 23503: key_id not registered',
} satisfies SendOutcome

/** The id of what an outbox item sends. */
export const itemId = (item: OutboxItem) =>
  item.kind === 'inquiry' ? item.row.id : item.message.id

/** A sealed row as the outbox queues it. */
export const inquiryItem = (row: QueuedInquiryRow): OutboxItem => ({ kind: 'inquiry', row })

/** A send function answering from a script (one outcome per call, per id) that records its calls. */
export function scriptedSend(script: Record<string, SendOutcome<OutboxFailureReason>[]>) {
  const sent: OutboxItem[] = []
  const send: SendQueued = async (item) => {
    sent.push(item)
    const outcome = script[itemId(item)]?.shift()
    if (!outcome) throw new Error(`unplanned send of ${itemId(item)}`)
    return outcome
  }
  return { send, sent, sentIds: () => sent.map(itemId) }
}

/** The outbox's records as stored, past the store's own code: what is on disk, or damage to put there. */
export function rawOutbox(factory: IDBFactory) {
  const open = async () => (await wrap(factory.open(OUTBOX_DB_NAME))) as IDBPDatabase
  return {
    async records(): Promise<unknown[]> {
      const db = await open()
      const values: unknown[] = await db.getAll(OUTBOX_STORE)
      db.close()
      return values
    },
    async put(value: unknown): Promise<void> {
      const db = await open()
      await db.put(OUTBOX_STORE, value)
      db.close()
    },
  }
}

/** The form's dependencies as spies: everything works (sealed, delivered, stored, online) unless overridden. */
export function fakeDependencies(overrides: Partial<SubmitDependencies> = {}) {
  return {
    preload: vi.fn<SubmitDependencies['preload']>(overrides.preload ?? (() => {})),
    preloadFiles: vi.fn<SubmitDependencies['preloadFiles']>(overrides.preloadFiles ?? (() => {})),
    seal: vi.fn<SubmitDependencies['seal']>(
      overrides.seal ?? (async (draft) => sealedInquiryFor(draft)),
    ),
    send: vi.fn<SubmitDependencies['send']>(overrides.send ?? (async () => DELIVERED)),
    upload: vi.fn<SubmitDependencies['upload']>(overrides.upload ?? (async () => DELIVERED)),
    enqueue: vi.fn<SubmitDependencies['enqueue']>(overrides.enqueue ?? (async () => {})),
    isOnline: overrides.isOnline ?? (() => true),
  }
}
