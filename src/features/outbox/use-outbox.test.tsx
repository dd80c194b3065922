// @vitest-environment jsdom
// idb recognises requests by the global IDB classes, so they must exist even with a factory per test.
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { OutboxItem } from './outbox-types'
import { failureMessages, submitToasts } from '../contact/contact-copy'
import type { SendOutcome } from './outbox-types'
import { outboxCopy } from './outbox-copy'
import { ADA, BOB, inquiryItem, REFUSED } from '../contact/contact-test-fixtures'

/**
 * The outbox's owner as a page has it (fake IndexedDB, the real store, flush and lock), with only
 * the network faked: what the visitor is told when the backend refuses queued messages.
 */

const REFUSED_DETAIL = REFUSED.detail

const wire = vi.hoisted(() => ({ sent: [] as string[] }))
vi.mock('./send-queued', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./send-queued')>()),
  sendQueuedWith:
    () =>
    async (item: OutboxItem): Promise<SendOutcome> => (
      wire.sent.push(item.kind === 'inquiry' ? item.row.id : item.message.id),
      REFUSED
    ),
}))
vi.mock('../../lib/load-backend', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/load-backend')>()),
  loadBackend: async () => ({}),
}))

let online = true

/** A fresh owner (its state is per page) on a fresh database, sharing the toast queue it uses. */
async function page() {
  vi.resetModules()
  const [{ outbox, useOutbox }, toasts] = await Promise.all([
    import('./use-outbox'),
    import('../../components/toast/toast-store'),
  ])
  const refusals = () =>
    toasts.getToasts().filter((toast) => toast.open && toast.title === submitToasts.failed.title)
  return { outbox, start: () => renderHook(() => useOutbox()), refusals }
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory()
  wire.sent = []
  online = true
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

test('several queued messages refused in one round all reach the visitor: one toast says how many and where to review them', async () => {
  const { outbox, start, refusals } = await page()
  // Queued offline on an earlier visit; this page starts online and sends both in one round.
  online = false
  await outbox.enqueue(inquiryItem(ADA))
  await outbox.enqueue(inquiryItem(BOB))
  expect(wire.sent).toEqual([])
  online = true
  start()

  await waitFor(() => expect(wire.sent).toEqual([ADA.id, BOB.id]))
  await waitFor(() => expect(refusals()).toHaveLength(1))
  const [toast] = refusals()
  expect(toast?.description).toMatch(/^2 messages /)
  expect(toast).toMatchObject({
    variant: 'destructive',
    description: submitToasts.queuedRefusedSeveral(2, outboxCopy.notDelivered(2)),
  })
  expect(console.error).toHaveBeenCalledTimes(2)
  expect(console.error).toHaveBeenCalledWith(
    'A queued contact message was refused:',
    REFUSED_DETAIL,
  )
})

test('refusals in separate rounds each keep their own toast, naming the message by its time and saying why', async () => {
  const { outbox, refusals } = await page()
  await outbox.enqueue(inquiryItem(ADA))
  await waitFor(() => expect(refusals()).toHaveLength(1))
  await outbox.enqueue(inquiryItem(BOB))
  await waitFor(() => expect(wire.sent).toEqual([ADA.id, BOB.id]))

  await waitFor(() => expect(refusals()).toHaveLength(2))
  for (const toast of refusals()) {
    expect(toast.description).toMatch(/^Your message queued at .+ was not delivered\. /)
    expect(toast.description).toContain(failureMessages.staleKey)
  }
})

test('news of the same message replaces its older toast: a resend refused again leaves one toast', async () => {
  const { outbox, refusals } = await page()
  await outbox.enqueue(inquiryItem(ADA))
  await waitFor(() => expect(refusals()).toHaveLength(1))
  await outbox.resend(ADA.id)
  expect(wire.sent).toEqual([ADA.id, ADA.id])
  expect(refusals()).toHaveLength(1)
})

test("a row the form gave up on (its signal aborted) is not stored, so nothing is sent behind the visitor's back", async () => {
  const { outbox } = await page()
  const gaveUp = new AbortController()
  gaveUp.abort()
  await outbox.enqueue(inquiryItem(ADA), gaveUp.signal)
  expect(await outbox.list()).toEqual([])
  expect(wire.sent).toEqual([])
})
