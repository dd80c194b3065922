// @vitest-environment node
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { describe, expect, it } from 'vitest'
import { sealSubmission } from '../../../features/contact/sealing/seal-submission'
import { buildDocument } from '../../../shared/submission/sealed-document'
import { NIGHT_OWL } from '../../../shared/submission/submission-test-fixtures'
import type { Inquiry, InquiryRow } from './inquiry'
import {
  allPages,
  idRangeOfReference,
  openInquiry,
  openInSlices,
  sortInquiries,
  sortSealedRows,
} from './inquiries'

const HOUR = 3_600_000
const NOW = Date.parse('2026-11-24T12:00:00Z')

function row(id: string, hoursAgo: number, status: InquiryRow['status'] = 'new'): InquiryRow {
  return {
    id,
    key_id: '0000000000000000',
    sealed: 'sealed',
    status,
    created_at: new Date(NOW - hoursAgo * HOUR).toISOString(),
    responded_at: null,
    completed_at: null,
    responded_by: null,
    awaiting_reply_since: null,
  }
}

/** A row a visitor wrote to `hoursAgo`, with nobody's answer since. */
const awaiting = (base: InquiryRow, hoursAgo: number): InquiryRow => ({
  ...base,
  awaiting_reply_since: new Date(NOW - hoursAgo * HOUR).toISOString(),
})

const listed = (base: InquiryRow, overdue = false): Inquiry => ({
  ...base,
  overdue,
  opened: { problem: 'damaged' },
})

describe('sortInquiries', () => {
  it('puts overdue first (oldest first), then new (next due first), then the rest (newest first)', () => {
    const order = sortInquiries([
      listed(row('answered-old', 50, 'responded')),
      listed(row('new-recent', 1)),
      listed(row('overdue-newer', 30), true),
      listed(row('answered-recent', 2, 'completed')),
      listed(row('new-older', 10)),
      listed(row('overdue-oldest', 40), true),
    ]).map((inquiry) => inquiry.id)
    expect(order).toEqual([
      'overdue-oldest',
      'overdue-newer',
      'new-older',
      'new-recent',
      'answered-recent',
      'answered-old',
    ])
  })

  it('puts inquiries with an unanswered message from the visitor above all others, longest waiting first', () => {
    const order = sortInquiries([
      listed(row('overdue', 40), true),
      listed(awaiting(row('answered-then-asked', 100, 'responded'), 1)),
      listed(row('new', 1)),
      listed(awaiting(row('engaged-asked-earlier', 3, 'engaged'), 2)),
      listed(row('completed', 2, 'completed')),
      // Overdue and waiting: the waiting message decides its place.
      listed(awaiting(row('overdue-and-asked', 30), 0.5), true),
    ]).map((inquiry) => inquiry.id)
    expect(order).toEqual([
      'engaged-asked-earlier',
      'answered-then-asked',
      'overdue-and-asked',
      'overdue',
      'new',
      'completed',
    ])
  })
})

describe('openInquiry', () => {
  it('opens a row sealed to this device’s key, and says which rows belong to another key', async () => {
    const mine = await generateIdentity()
    const theirs = await generateIdentity()
    const id = crypto.randomUUID()
    const document = buildDocument(
      { name: 'Ada', contact: '@ada_l', message: 'Hello', project_type: null, budget: null },
      {
        id,
        now: NOW,
        userAgent: 'test',
        replyTo: NIGHT_OWL.reply_to,
        signingKey: NIGHT_OWL.signing_key,
      },
    )
    const sealedToMe = await sealSubmission(document, [await identityToRecipient(mine)])
    const sealedToThem = await sealSubmission(document, [await identityToRecipient(theirs)])
    const opened = await openInquiry({ ...row(id, 1), ...sealedToMe }, [mine], new Set([id]))
    expect(opened.overdue).toBe(true)
    expect('document' in opened.opened && opened.opened.document.name).toBe('Ada')
    const other = await openInquiry({ ...row(id, 1), ...sealedToThem }, [mine], new Set())
    expect(other.opened).toEqual({ problem: 'other-key' })
    const damaged = await openInquiry({ ...row(id, 1), sealed: 'not armor' }, [mine], new Set())
    expect(damaged.opened).toEqual({ problem: 'damaged' })
  })
})

describe('allPages', () => {
  const table = Array.from({ length: 1234 }, (_, index) => index)

  it('reads every row though the server answers fewer per request than a page asks for', async () => {
    const maxRows = 100 // a project's "Max rows", lower than the page size
    const requests: [number, number][] = []
    const rows = await allPages(async (from, to) => {
      requests.push([from, to])
      return table.slice(from, Math.min(to + 1, from + maxRows))
    }, 500)
    expect(rows).toEqual(table)
    expect(requests[1]).toEqual([100, 599])
    expect(requests).toHaveLength(14)
  })

  it('asks once for an empty table, and once more after a last full page', async () => {
    const none = await allPages(async () => [], 500)
    expect(none).toEqual([])
    let asked = 0
    const exactly = await allPages(
      async (from) => (asked++, table.slice(from, from + 500).slice(0, 1000 - from)),
      500,
    )
    expect(exactly).toEqual(table.slice(0, 1000))
    expect(asked).toBe(3)
  })
})

describe('sortSealedRows', () => {
  it('orders sealed rows as the list will show them, from their unsealed columns alone', () => {
    const rows = [
      row('answered', 5, 'responded'),
      row('new', 1),
      row('overdue', 30),
      awaiting(row('asked', 50, 'engaged'), 2),
    ]
    const order = sortSealedRows(rows, new Set(['overdue'])).map((sealed) => sealed.id)
    expect(order).toEqual(['asked', 'overdue', 'new', 'answered'])
    expect(order).toEqual(
      sortInquiries(rows.map((r) => listed(r, r.id === 'overdue'))).map((i) => i.id),
    )
  })
})

describe('idRangeOfReference', () => {
  it('bounds exactly the ids that begin with the reference, as the database orders UUIDs', () => {
    const [from, to] = idRangeOfReference('1a2b3c4d')
    const within = (id: string) => id >= from && id <= to
    expect(within('1a2b3c4d-0000-4000-8000-000000000000')).toBe(true)
    expect(within('1a2b3c4d-ffff-4fff-bfff-ffffffffffff')).toBe(true)
    expect(within('1a2b3c4d-9e1f-4c2a-a3b4-c5d6e7f80912')).toBe(true)
    expect(within('1a2b3c4c-ffff-4fff-bfff-ffffffffffff')).toBe(false)
    expect(within('1a2b3c4e-0000-4000-8000-000000000000')).toBe(false)
    expect(from).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/)
    expect(to).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/)
  })
})

describe('openInSlices', () => {
  it('opens every row in order, hearing the first screen first, and yields between slices', async () => {
    const rows = Array.from({ length: 40 }, (_, index) => index)
    const heard: number[] = []
    let tasksRun = 0
    // A task queued before opening runs only when the opening yields to the event loop.
    const channel = new MessageChannel()
    channel.port1.onmessage = () => (tasksRun += 1)
    channel.port2.postMessage(null)
    let clock = 0
    const opened = await openInSlices(
      rows,
      async (value) => {
        clock += 10 // each row "costs" 10 ms
        return value * 2
      },
      (done) => heard.push(done.length),
      { sliceMs: 45, firstScreen: 3, parallel: 1, now: () => clock },
    )
    channel.port1.close()
    expect(opened).toEqual(rows.map((value) => value * 2))
    // The first screen (3), then a slice every 5 rows (>= 45 ms each), then the end.
    expect(heard[0]).toBe(3)
    expect(heard.at(-1)).toBe(40)
    expect(heard.slice(1, 4)).toEqual([8, 13, 18])
    expect(tasksRun).toBe(1)
  })

  it('never runs a slice past its budget when every row is slow', async () => {
    let clock = 0
    const heard: number[] = []
    await openInSlices(
      [1, 2, 3],
      async (value) => ((clock += 100), value),
      (done) => heard.push(done.length),
      { sliceMs: 40, firstScreen: 10, parallel: 1, now: () => clock },
    )
    expect(heard).toEqual([1, 2, 3])
  })

  it('opens a few rows at once, the first screen in a batch of its own', async () => {
    const started: number[][] = []
    let running: number[] = []
    const opened = await openInSlices(
      Array.from({ length: 10 }, (_, index) => index),
      async (value) => {
        running.push(value)
        if (running.length === 1) queueMicrotask(() => (started.push(running), (running = [])))
        await Promise.resolve()
        return value
      },
      () => {},
      { firstScreen: 3, parallel: 4, sliceMs: 1000, now: () => 0 },
    )
    expect(opened).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(started).toEqual([
      [0, 1, 2],
      [3, 4, 5, 6],
      [7, 8, 9],
    ])
  })
})
