import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SealedRow } from '../../shared/database-types'
import { failureMessages, sealingFailures, submitToasts } from './contact-copy'
import { SealError } from '../../shared/crypto/seal-error'
import { DRAFT, fakeDependencies, sealedInquiryFor, TEST_RECEIPT } from './contact-test-fixtures'
import type { OutboxItem } from '../outbox/outbox-types'
import type { SendOutcome } from '../outbox/outbox-types'
import {
  QUEUE_TIMEOUT_MS,
  sealingDeadline,
  STILL_SENDING_AFTER_MS,
  submitContact,
  SUBMIT_DEADLINE_MS,
  type SealedInquiry,
  type SubmitDependencies,
} from './submit-contact'

const document = DRAFT
const sealed = sealedInquiryFor(document)
const row = sealed.row
const queuedRow: OutboxItem = { kind: 'inquiry', row }
const inquiry = { id: row.id, receipt: TEST_RECEIPT, sentAt: document.now }

const dependencies = (outcome: SendOutcome, overrides: Partial<SubmitDependencies> = {}) =>
  fakeDependencies({ send: async () => outcome, ...overrides })

describe('submitContact', () => {
  it('seals, then sends the sealed row only, and reports sent', async () => {
    const deps = dependencies({ kind: 'delivered' })
    expect(await submitContact(document, deps)).toEqual({ kind: 'sent', inquiry })
    expect(deps.seal).toHaveBeenCalledWith(document, null, [], expect.any(Function))
    expect(deps.send).toHaveBeenCalledWith(row, expect.any(AbortSignal))
    expect(deps.enqueue).not.toHaveBeenCalled()
  })

  it('fails closed when sealing fails: nothing sent or queued, the sealer’s own sentence shown', async () => {
    for (const [error, message] of [
      [new SealError('no-recipients'), sealingFailures['no-recipients']],
      [new TypeError('Failed to fetch dynamically imported module'), sealingFailures.unavailable],
    ] as const) {
      const deps = dependencies(
        { kind: 'delivered' },
        { seal: vi.fn(async () => Promise.reject(error)) },
      )
      expect(await submitContact(document, deps)).toEqual({
        kind: 'failed',
        message,
        detail: error,
      })
      expect(deps.send).not.toHaveBeenCalled()
      expect(deps.enqueue).not.toHaveBeenCalled()
    }
  })

  it('queues the sealed row without any request when the browser is offline', async () => {
    const deps = dependencies({ kind: 'delivered' }, { isOnline: () => false })
    expect(await submitContact(document, deps)).toEqual({ kind: 'queued', inquiry })
    expect(deps.send).not.toHaveBeenCalled()
    expect(deps.enqueue).toHaveBeenCalledWith(queuedRow, expect.any(AbortSignal))
  })

  it('queues the sealed row when there is no answer (timeout, gateway, 429)', async () => {
    const deps = dependencies({ kind: 'no-answer', reason: 'busy', detail: 'HTTP 429' })
    expect(await submitContact(document, deps)).toEqual({ kind: 'queued', inquiry })
    expect(deps.enqueue).toHaveBeenCalledWith(queuedRow, expect.any(AbortSignal))
  })

  it('fails with a human sentence on a refusal or a server error, queuing nothing', async () => {
    for (const outcome of [
      {
        kind: 'refused',
        reason: 'notAccepted',
        detail: 'HTTP 400 23514: violates check constraint',
      },
      { kind: 'server-error', reason: 'serverError', detail: 'HTTP 500: internal' },
    ] as const) {
      const deps = dependencies(outcome)
      expect(await submitContact(document, deps)).toEqual({
        kind: 'failed',
        message: failureMessages[outcome.reason],
        detail: outcome.detail,
      })
      expect(deps.enqueue).not.toHaveBeenCalled()
    }
  })

  it('fails, so the form keeps the values, when the outbox cannot store the row', async () => {
    const quota = new DOMException('full', 'QuotaExceededError')
    const deps = dependencies(
      { kind: 'no-answer', reason: 'noAnswer', detail: 'HTTP 0' },
      { enqueue: vi.fn(async () => Promise.reject(quota)) },
    )
    expect(await submitContact(document, deps)).toEqual({
      kind: 'failed',
      message: submitToasts.notSaved,
      detail: quota,
    })
  })
})

describe('submitContact with attached files', () => {
  const ciphertext = new Blob([new Uint8Array(64)], { type: 'application/octet-stream' })
  const object = `${row.id}/3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3d`
  const source = new File(['secret plan'], 'plan.txt', { type: 'text/plain' })
  const sealedFile = {
    source,
    ciphertext,
    attachment: { object, name: 'plan.txt', type: 'text/plain', size: 11, sha256: 'a'.repeat(64) },
  }
  const withFiles = { ...document, files: [source] }
  const seal = vi.fn(async () => ({ ...sealed, files: [sealedFile] }))

  it('uploads the ciphertext under its object name first, then inserts the row', async () => {
    const order: string[] = []
    const deps = dependencies(
      { kind: 'delivered' },
      {
        seal,
        upload: vi.fn(async () => (order.push('upload'), { kind: 'delivered' as const })),
        send: vi.fn(async () => (order.push('send'), { kind: 'delivered' as const })),
      },
    )
    const onSealed = vi.fn()
    expect(await submitContact(withFiles, deps, { onSealed })).toEqual({
      kind: 'sent',
      inquiry,
    })
    expect(order).toEqual(['upload', 'send'])
    // Only the object's name and its ciphertext leave: never the picked file, its name or type.
    expect(deps.upload).toHaveBeenCalledWith([{ object, ciphertext }], expect.any(Function))
    expect(onSealed).toHaveBeenCalledWith(TEST_RECEIPT, [sealedFile])
  })

  it('queues the row with the ciphertext when an upload gets no answer, and sends no row', async () => {
    const deps = dependencies(
      { kind: 'delivered' },
      {
        seal,
        upload: vi.fn(async () => ({
          kind: 'no-answer' as const,
          reason: 'noAnswer' as const,
          detail: 'HTTP 0',
        })),
      },
    )
    expect(await submitContact(withFiles, deps)).toEqual({ kind: 'queued', inquiry })
    expect(deps.send).not.toHaveBeenCalled()
    expect(deps.enqueue).toHaveBeenCalledWith(
      { kind: 'inquiry', row, attachments: [{ object, ciphertext }] },
      expect.any(AbortSignal),
    )
  })

  it('queues at once when offline, and says so when the device has no room for the files', async () => {
    const quota = new DOMException('full', 'QuotaExceededError')
    const deps = dependencies(
      { kind: 'delivered' },
      { seal, isOnline: () => false, enqueue: vi.fn(async () => Promise.reject(quota)) },
    )
    expect(await submitContact(withFiles, deps)).toEqual({
      kind: 'failed',
      message: submitToasts.notSavedQuota,
      detail: quota,
    })
    expect(deps.upload).not.toHaveBeenCalled()
  })

  it('fails with a sentence, keeping everything, when Storage refuses a file', async () => {
    const deps = dependencies(
      { kind: 'delivered' },
      {
        seal,
        upload: vi.fn(async () => ({
          kind: 'refused' as const,
          reason: 'fileRefused' as const,
          detail: 'HTTP 403',
        })),
      },
    )
    expect(await submitContact(withFiles, deps)).toMatchObject({
      kind: 'failed',
      message: failureMessages.fileRefused,
    })
    expect(deps.send).not.toHaveBeenCalled()
    expect(deps.enqueue).not.toHaveBeenCalled()
  })

  it('gives sealing more time for larger files', () => {
    expect(sealingDeadline([])).toBe(SUBMIT_DEADLINE_MS)
    expect(sealingDeadline([new Blob([new Uint8Array(2 * 1024 * 1024)])])).toBe(
      SUBMIT_DEADLINE_MS + 2000,
    )
  })
})

/** A promise that never settles: a chunk or a request stalled on a poor link, with no error ever. */
const stalled = <T>() => new Promise<T>(() => {})

/** The number of ticks a promise chain needs here is an implementation detail: let them all run. */
const settle = () => vi.advanceTimersByTimeAsync(0)

describe('submitContact on a stalled connection (one deadline for the whole submit)', () => {
  afterEach(() => vi.useRealTimers())

  it('gives a phone a fair chance, but never leaves "Encrypting & Sending..." for more than 25 s', () => {
    expect(SUBMIT_DEADLINE_MS).toBeGreaterThanOrEqual(10_000)
    expect(SUBMIT_DEADLINE_MS + QUEUE_TIMEOUT_MS).toBeLessThanOrEqual(25_000)
    expect(QUEUE_TIMEOUT_MS).toBeGreaterThanOrEqual(1_000)
  })

  it('fails closed when the encryption code has not loaded by the deadline: nothing sent or queued, the seal unused', async () => {
    vi.useFakeTimers()
    let finishSeal: (sealed: SealedInquiry) => void = () => {}
    const onSealed = vi.fn()
    const deps = dependencies(
      { kind: 'delivered' },
      { seal: vi.fn(() => new Promise<SealedInquiry>((resolve) => (finishSeal = resolve))) },
    )
    const result = vi.fn()
    void submitContact(document, deps, { onSealed }).then(result)

    await vi.advanceTimersByTimeAsync(SUBMIT_DEADLINE_MS - 1)
    expect(result).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(result).toHaveBeenCalledWith({
      kind: 'failed',
      message: submitToasts.notSealedInTime,
      detail: expect.stringContaining(`${SUBMIT_DEADLINE_MS}`),
    })

    // The code arrives after all: this press of Send has ended, so nothing leaves.
    finishSeal(sealed)
    await settle()
    expect(onSealed).not.toHaveBeenCalled()
    expect(deps.send).not.toHaveBeenCalled()
    expect(deps.enqueue).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('leaves no timer behind once it has an answer before the deadline', async () => {
    vi.useFakeTimers()
    expect(await submitContact(document, dependencies({ kind: 'delivered' }))).toEqual({
      kind: 'sent',
      inquiry,
    })
    expect(
      await submitContact(
        document,
        dependencies({ kind: 'no-answer', reason: 'noAnswer', detail: 'HTTP 0' }),
      ),
    ).toEqual({ kind: 'queued', inquiry })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('reports a slow seal after STILL_SENDING_AFTER_MS, then a slow send at once once sealed', async () => {
    vi.useFakeTimers()
    let finishSeal: (sealed: SealedInquiry) => void = () => {}
    const onSlow = vi.fn()
    const deps = dependencies(
      { kind: 'delivered' },
      {
        seal: vi.fn(() => new Promise<SealedInquiry>((resolve) => (finishSeal = resolve))),
        send: vi.fn(() => stalled<SendOutcome>()),
      },
    )
    void submitContact(document, deps, { onSlow })
    await vi.advanceTimersByTimeAsync(STILL_SENDING_AFTER_MS - 1)
    expect(onSlow).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(onSlow.mock.calls).toEqual([['sealing']])
    finishSeal(sealed)
    await settle()
    expect(onSlow.mock.calls).toEqual([['sealing'], ['sending']])
    await vi.advanceTimersByTimeAsync(SUBMIT_DEADLINE_MS)
    expect(onSlow).toHaveBeenCalledTimes(2)
  })

  it("gives a quick seal's send its own STILL_SENDING_AFTER_MS before calling it slow, and says nothing of a quick one", async () => {
    vi.useFakeTimers()
    const onSlow = vi.fn()
    void submitContact(
      document,
      dependencies({ kind: 'delivered' }, { send: vi.fn(() => stalled<SendOutcome>()) }),
      { onSlow },
    )
    await vi.advanceTimersByTimeAsync(STILL_SENDING_AFTER_MS - 1)
    expect(onSlow).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(onSlow.mock.calls).toEqual([['sending']])

    const quick = vi.fn()
    await submitContact(document, dependencies({ kind: 'delivered' }), { onSlow: quick })
    await vi.advanceTimersByTimeAsync(SUBMIT_DEADLINE_MS)
    expect(quick).not.toHaveBeenCalled()
  })

  it('says the row is sealed only once it is, and never when sealing fails', async () => {
    const order: string[] = []
    const deps = dependencies(
      { kind: 'delivered' },
      {
        seal: vi.fn(async () => (order.push('seal'), sealed)),
        send: vi.fn(async (): Promise<SendOutcome> => {
          order.push('send')
          return { kind: 'delivered' }
        }),
      },
    )
    await submitContact(document, deps, { onSealed: () => order.push('sealed') })
    expect(order).toEqual(['seal', 'sealed', 'send'])

    const onSealed = vi.fn()
    await submitContact(
      document,
      dependencies(
        { kind: 'delivered' },
        { seal: vi.fn(async () => Promise.reject(new Error('no'))) },
      ),
      { onSealed },
    )
    expect(onSealed).not.toHaveBeenCalled()
  })

  it('queues the sealed row when the sender, its client or the insert has not answered by the deadline, and stops the send', async () => {
    vi.useFakeTimers()
    const send = vi.fn((_row: SealedRow, _signal?: AbortSignal) => stalled<SendOutcome>())
    const deps = dependencies({ kind: 'delivered' }, { send })
    const result = vi.fn()
    void submitContact(document, deps).then(result)

    await vi.advanceTimersByTimeAsync(SUBMIT_DEADLINE_MS - 1)
    expect(result).not.toHaveBeenCalled()
    const signal = send.mock.calls[0]?.[1]
    expect(signal?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(result).toHaveBeenCalledWith({ kind: 'queued', inquiry })
    expect(deps.enqueue).toHaveBeenCalledWith(queuedRow, expect.any(AbortSignal))
    expect(signal?.aborted).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('counts the deadline from Send, not from the seal: a slow seal leaves the send only the rest', async () => {
    vi.useFakeTimers()
    const deps = dependencies(
      { kind: 'delivered' },
      {
        seal: vi.fn(
          () => new Promise<SealedInquiry>((resolve) => setTimeout(() => resolve(sealed), 15_000)),
        ),
        send: vi.fn(() => stalled<SendOutcome>()),
      },
    )
    const result = vi.fn()
    void submitContact(document, deps).then(result)
    await vi.advanceTimersByTimeAsync(SUBMIT_DEADLINE_MS)
    expect(deps.send).toHaveBeenCalledTimes(1)
    expect(result).toHaveBeenCalledWith({ kind: 'queued', inquiry })
  })

  it('keeps the values with a clear sentence when the outbox cannot store the row in time, and tells it to store nothing', async () => {
    vi.useFakeTimers()
    const enqueue = vi.fn((_item: OutboxItem, _signal?: AbortSignal) => stalled<void>())
    const deps = dependencies(
      { kind: 'delivered' },
      { send: vi.fn(() => stalled<SendOutcome>()), enqueue },
    )
    const result = vi.fn()
    void submitContact(document, deps).then(result)

    await vi.advanceTimersByTimeAsync(SUBMIT_DEADLINE_MS + QUEUE_TIMEOUT_MS - 1)
    expect(result).not.toHaveBeenCalled()
    expect(enqueue.mock.calls[0]?.[1]?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(result).toHaveBeenCalledWith({
      kind: 'failed',
      message: submitToasts.notSaved,
      detail: expect.stringContaining(`${QUEUE_TIMEOUT_MS}`),
    })
    expect(enqueue.mock.calls[0]?.[1]?.aborted).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('gives queuing its own time when the answer came just before the deadline, and bounds it offline too', async () => {
    vi.useFakeTimers()
    const late = dependencies(
      { kind: 'delivered' },
      {
        send: vi.fn(
          () =>
            new Promise<SendOutcome>((resolve) =>
              setTimeout(
                () => resolve({ kind: 'no-answer', reason: 'noAnswer', detail: 'HTTP 504' }),
                SUBMIT_DEADLINE_MS - 1,
              ),
            ),
        ),
        enqueue: vi.fn(
          () => new Promise<void>((resolve) => setTimeout(resolve, QUEUE_TIMEOUT_MS - 1)),
        ),
      },
    )
    const result = vi.fn()
    void submitContact(document, late).then(result)
    await vi.advanceTimersByTimeAsync(SUBMIT_DEADLINE_MS + QUEUE_TIMEOUT_MS)
    expect(result).toHaveBeenCalledWith({ kind: 'queued', inquiry })

    const offline = dependencies(
      { kind: 'delivered' },
      { isOnline: () => false, enqueue: vi.fn(() => stalled<void>()) },
    )
    const offlineResult = vi.fn()
    void submitContact(document, offline).then(offlineResult)
    await vi.advanceTimersByTimeAsync(QUEUE_TIMEOUT_MS)
    expect(offlineResult).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'failed', message: submitToasts.notSaved }),
    )
  })
})
