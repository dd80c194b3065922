// idb recognises requests by the global IDB classes, so they must exist even with a factory per test.
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { LIMITS } from './contact-fields'
import { FIELD_MESSAGES, type ContactSubmission } from './contact-schema'
import { flushOutbox, type FlushDeps } from './outbox-flush'
import { inPageMutex, webLocks, type WithLock } from './outbox-lock'
import { UNREADABLE_RECORD_MESSAGE, openOutbox, type Outbox } from './outbox-store'
import { ADA, BOB, T0, putRaw } from './outbox-test-fixtures'
import { retryDelay } from './retry-delay'
import type { SendOutcome, SendSubmission } from './send-outcome'

const DELIVERED: SendOutcome = { kind: 'delivered' }
const OFFLINE: SendOutcome = { kind: 'unreachable', message: 'Failed to fetch' }
const SERVER_ERROR: SendOutcome = { kind: 'retryable', status: 503, message: 'Service Unavailable' }
const TOO_MANY: SendOutcome = { kind: 'retryable', status: 429, message: 'Too Many Requests' }
const REFUSED: SendOutcome = {
  kind: 'rejected',
  status: 401,
  message: 'new row violates row-level security policy for table "contact_submissions"',
}

// Each test gets its own in-memory IndexedDB and its own clock.
let factory: IDBFactory
let outbox: Outbox
let clock: number

beforeEach(async () => {
  factory = new IDBFactory()
  outbox = await openOutbox(factory)
  clock = T0
})

afterEach(() => {
  outbox.close()
})

/** A send function that answers from a script (one outcome per call, per id) and records calls. */
function scriptedSend(script: Record<string, SendOutcome[]>) {
  const sent: string[] = []
  const send: SendSubmission = async (submission) => {
    sent.push(submission.id)
    const outcome = script[submission.id]?.shift()
    if (!outcome) throw new Error(`unplanned send of ${submission.name}`)
    return outcome
  }
  return { send, sent }
}

function deps(send: SendSubmission, withLock: WithLock = inPageMutex()): FlushDeps {
  return { outbox, send, now: () => clock, withLock }
}

test('retries wait 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s at most', () => {
  expect([1, 2, 3, 4, 5, 6, 7].map(retryDelay)).toStrictEqual([
    1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
  ])
  expect(retryDelay(60)).toBe(30_000)
})

test('a delivered submission leaves the outbox at once and is reported', async () => {
  await outbox.enqueue(ADA, T0)
  await outbox.enqueue(BOB, T0 + 1)
  clock = T0 + 10
  const seenWhileSendingBob: unknown[] = []
  const send: SendSubmission = async (submission) => {
    if (submission.id === BOB.id) seenWhileSendingBob.push(await outbox.get(ADA.id))
    return DELIVERED
  }

  const summary = await flushOutbox(deps(send))

  expect(seenWhileSendingBob).toStrictEqual([undefined])
  expect(summary).toStrictEqual({
    delivered: [ADA, BOB],
    rejected: [],
    pending: 0,
    needsAttention: 0,
    nextAttemptAt: null,
  })
  expect(await outbox.list()).toStrictEqual([])
})

test('a submission the backend already holds (409 duplicate) counts as delivered: one row, outbox empty', async () => {
  // The backend commits the insert but the answer is lost; the replay hits the same id.
  const rows = new Map<string, ContactSubmission>()
  let answerLost = true
  const send: SendSubmission = async (submission) => {
    if (rows.has(submission.id)) return DELIVERED // what the send function makes of a 409
    rows.set(submission.id, submission)
    if (answerLost) {
      answerLost = false
      return OFFLINE
    }
    return DELIVERED
  }
  await outbox.enqueue(ADA, T0)

  const first = await flushOutbox(deps(send))
  clock += retryDelay(1)
  const second = await flushOutbox(deps(send))

  expect(first.delivered).toStrictEqual([])
  expect(second.delivered).toStrictEqual([ADA])
  expect([...rows.values()]).toStrictEqual([ADA])
  expect(await outbox.list()).toStrictEqual([])
})

test('when the network is down the record is kept, retried after the backoff, and the round stops', async () => {
  await outbox.enqueue(ADA, T0)
  await outbox.enqueue(BOB, T0 + 1)
  clock = T0 + 10
  const { send, sent } = scriptedSend({ [ADA.id]: [OFFLINE] })

  const summary = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([ADA.id])
  expect(await outbox.get(ADA.id)).toMatchObject({
    state: 'pending',
    attempts: 1,
    nextAttemptAt: T0 + 10 + 1_000,
    lastError: 'Failed to fetch',
  })
  expect(await outbox.get(BOB.id)).toMatchObject({ state: 'pending', attempts: 0 })
  expect(summary).toStrictEqual({
    delivered: [],
    rejected: [],
    pending: 2,
    needsAttention: 0,
    nextAttemptAt: T0 + 10 + 1_000,
  })
})

test('a 5xx answer keeps the record with one more attempt and the next backoff, and the round goes on', async () => {
  const ada = await outbox.enqueue(ADA, T0)
  await outbox.update({ ...ada, attempts: 3 })
  await outbox.enqueue(BOB, T0 + 1)
  clock = T0 + 60_000
  const { send, sent } = scriptedSend({ [ADA.id]: [SERVER_ERROR], [BOB.id]: [DELIVERED] })

  const summary = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([ADA.id, BOB.id])
  expect(await outbox.get(ADA.id)).toMatchObject({
    state: 'pending',
    attempts: 4,
    nextAttemptAt: T0 + 60_000 + retryDelay(4),
    lastError: 'Service Unavailable',
  })
  expect(retryDelay(4)).toBe(8_000)
  expect(summary).toMatchObject({
    delivered: [BOB],
    pending: 1,
    nextAttemptAt: T0 + 60_000 + 8_000,
  })
})

test('a 429 answer keeps the record with one more attempt and the backoff', async () => {
  await outbox.enqueue(ADA, T0)
  const { send } = scriptedSend({ [ADA.id]: [TOO_MANY] })

  await flushOutbox(deps(send))

  expect(await outbox.get(ADA.id)).toMatchObject({
    state: 'pending',
    attempts: 1,
    nextAttemptAt: T0 + 1_000,
    lastError: 'Too Many Requests',
  })
})

test('a refused submission needs attention, is reported with the message, and is not resent later', async () => {
  await outbox.enqueue(ADA, T0)
  const { send, sent } = scriptedSend({ [ADA.id]: [REFUSED] })

  const summary = await flushOutbox(deps(send))
  clock += 24 * 60 * 60 * 1_000
  const later = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([ADA.id])
  expect(summary).toStrictEqual({
    delivered: [],
    rejected: [{ submission: ADA, message: REFUSED.message }],
    pending: 0,
    needsAttention: 1,
    nextAttemptAt: null,
  })
  expect(later).toStrictEqual({
    delivered: [],
    rejected: [],
    pending: 0,
    needsAttention: 1,
    nextAttemptAt: null,
  })
  expect(await outbox.get(ADA.id)).toMatchObject({
    submission: ADA,
    state: 'needs-attention',
    attempts: 1,
    lastError: REFUSED.message,
  })
})

test('a stored record that no longer passes the schema needs attention and is never sent', async () => {
  // Altered on disk: a blank name and an over-long brief.
  const tampered = { ...ADA, name: '  ', message: 'x'.repeat(LIMITS.message + 1) }
  await putRaw(factory, {
    version: 1,
    submission: tampered,
    queuedAt: '2025-03-01T08:00:00.000Z',
    attempts: 0,
    nextAttemptAt: T0,
    state: 'pending',
    lastError: null,
  })
  const { send, sent } = scriptedSend({})

  const summary = await flushOutbox(deps(send))
  const later = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([])
  expect(summary.rejected).toStrictEqual([
    {
      submission: tampered,
      message: `${FIELD_MESSAGES.nameRequired} ${FIELD_MESSAGES.tooLong(LIMITS.message)}`,
    },
  ])
  expect(later.rejected).toStrictEqual([])
  expect(await outbox.get(ADA.id)).toMatchObject({
    submission: tampered,
    state: 'needs-attention',
    attempts: 0,
  })
})

test('a record written by an older version is flagged, kept as stored and never sent', async () => {
  const old = { submission: ADA, queuedAt: '2025-02-27T18:30:00.000Z' }
  await putRaw(factory, old)
  const { send, sent } = scriptedSend({})

  const summary = await flushOutbox(deps(send))

  expect(sent).toStrictEqual([])
  expect(summary).toMatchObject({ pending: 0, needsAttention: 1, nextAttemptAt: null })
  expect(await outbox.get(ADA.id)).toMatchObject({
    submission: ADA,
    state: 'needs-attention',
    lastError: UNREADABLE_RECORD_MESSAGE,
  })
})

test('records not yet due are left for later, then sent once due', async () => {
  const ada = await outbox.enqueue(ADA, T0)
  await outbox.update({ ...ada, attempts: 2, nextAttemptAt: T0 + 2_000 })
  clock = T0 + 1_999
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })

  const early = await flushOutbox(deps(send))
  clock = T0 + 2_000
  const due = await flushOutbox(deps(send))

  expect(early).toMatchObject({ delivered: [], pending: 1, nextAttemptAt: T0 + 2_000 })
  expect(due.delivered).toStrictEqual([ADA])
  expect(sent).toStrictEqual([ADA.id])
})

test('when the connection returns, ignoreSchedule sends records whose backoff has not run out', async () => {
  const ada = await outbox.enqueue(ADA, T0)
  await outbox.update({ ...ada, attempts: 6, nextAttemptAt: T0 + 30_000 })
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })

  const summary = await flushOutbox({ ...deps(send), ignoreSchedule: true })

  expect(sent).toStrictEqual([ADA.id])
  expect(summary.delivered).toStrictEqual([ADA])
})

test('two flushes at the same time send each record once', async () => {
  await outbox.enqueue(ADA, T0)
  await outbox.enqueue(BOB, T0 + 1)
  clock = T0 + 10
  const sent: string[] = []
  let release = () => {}
  const answered = new Promise<void>((resolve) => (release = resolve))
  const send: SendSubmission = async (submission) => {
    sent.push(submission.id)
    await answered
    return DELIVERED
  }
  const lock = inPageMutex()

  const first = flushOutbox(deps(send, lock))
  const second = flushOutbox(deps(send, lock))
  const skipped = await second
  release()
  const done = await first

  expect(skipped).toStrictEqual({
    delivered: [],
    rejected: [],
    pending: 2,
    needsAttention: 0,
    nextAttemptAt: null,
    skipped: true,
  })
  expect(done.delivered).toStrictEqual([ADA, BOB])
  expect(sent).toStrictEqual([ADA.id, BOB.id])
})

test('without Web Locks, flushers in one page asking for the same lock name share one mutex', async () => {
  await outbox.enqueue(ADA, T0)
  let release = () => {}
  const answered = new Promise<void>((resolve) => (release = resolve))
  const { send: scripted, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })
  const send: SendSubmission = async (submission) => {
    await answered
    return scripted(submission)
  }

  const first = flushOutbox(deps(send, webLocks('contact-outbox-test', null)))
  const second = await flushOutbox(deps(send, webLocks('contact-outbox-test', null)))
  release()
  await first

  expect(second.skipped).toBe(true)
  expect(sent).toStrictEqual([ADA.id])
})

test('while another tab holds the Web Lock, this tab sends nothing', async () => {
  await outbox.enqueue(ADA, T0)
  const locks = fakeLockManager()
  let release = () => {}
  const otherTab = webLocks(
    'contact-outbox',
    locks,
  )(() => new Promise<void>((resolve) => (release = resolve)))
  const { send, sent } = scriptedSend({ [ADA.id]: [DELIVERED] })

  const blocked = await flushOutbox(deps(send, webLocks('contact-outbox', locks)))
  release()
  await otherTab
  const free = await flushOutbox(deps(send, webLocks('contact-outbox', locks)))

  expect(blocked).toMatchObject({ skipped: true, pending: 1 })
  expect(free.delivered).toStrictEqual([ADA])
  expect(sent).toStrictEqual([ADA.id])
})

test('a send function that throws is treated like an unreachable network', async () => {
  await outbox.enqueue(ADA, T0)
  const send: SendSubmission = async () => {
    throw new TypeError('NetworkError when attempting to fetch resource.')
  }

  const summary = await flushOutbox(deps(send))

  expect(summary).toMatchObject({ pending: 1, nextAttemptAt: T0 + 1_000 })
  expect(await outbox.get(ADA.id)).toMatchObject({
    attempts: 1,
    lastError: 'NetworkError when attempting to fetch resource.',
  })
})

/** The part of the Web Locks API that `webLocks` uses: exclusive locks, `ifAvailable`. */
function fakeLockManager(): LockManager {
  const held = new Set<string>()
  const manager = {
    async request(
      name: string,
      options: LockOptions,
      callback: (lock: Lock | null) => unknown,
    ): Promise<unknown> {
      if (held.has(name)) {
        if (options.ifAvailable) return callback(null)
        throw new Error('this fake only supports ifAvailable')
      }
      held.add(name)
      try {
        return await callback({ name, mode: 'exclusive' })
      } finally {
        held.delete(name)
      }
    },
    async query() {
      return { held: [], pending: [] }
    },
  }
  return manager as unknown as LockManager
}

test('a record the visitor discards while it is being sent is not reported as refused', async () => {
  await outbox.enqueue(ADA, T0)
  const send: SendSubmission = async () => {
    // The visitor presses Discard in the review while the request is in flight.
    await outbox.remove(ADA.id)
    return REFUSED
  }
  const summary = await flushOutbox({ outbox, send, now: () => clock, withLock: inPageMutex() })
  expect(summary.rejected).toEqual([])
  expect(await outbox.list()).toEqual([])
})
