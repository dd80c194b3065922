// The service worker's Background Sync round: the same outbox, the same lock, ids and sender as
// the page, and a note of what it delivered for the next page. Workbox's precaching is not this
// test's concern.
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { ADA, BOB, DELIVERED, inquiryItem, T0 } from './features/contact/contact-test-fixtures'
import { LOCK_NAME } from './features/outbox/outbox-definitions'
import { flushOutbox } from './features/outbox/outbox-flush'
import type { SendQueued } from './features/outbox/outbox-types'
import { outboxLock } from './features/outbox/outbox-lock'
import { openOutboxStore, OUTBOX_SYNC_TAG, takeDeliveryNotes } from './features/outbox/outbox-store'

vi.mock('workbox-core', () => ({ clientsClaim: vi.fn() }))
vi.mock('workbox-precaching', () => ({
  cleanupOutdatedCaches: vi.fn(),
  matchPrecache: vi.fn(),
  precacheAndRoute: vi.fn(),
}))
vi.mock('workbox-routing', () => ({ NavigationRoute: vi.fn(), registerRoute: vi.fn() }))

type SyncListener = (event: { tag: string; waitUntil(promise: Promise<unknown>): void }) => void
let syncListener: SyncListener | undefined
let windows: Array<{ visibilityState: string }> = []
const fetchMock = vi.fn<typeof fetch>()

beforeEach(() => {
  // Each test gets an empty origin: the outbox and the notes.
  vi.stubGlobal('indexedDB', new IDBFactory())
  vi.stubGlobal('fetch', fetchMock)
  vi.stubGlobal('self', {
    __WB_MANIFEST: [],
    addEventListener: (type: string, listener: SyncListener) => {
      if (type === 'sync') syncListener = listener
    },
    clients: { matchAll: async () => windows },
  })
  windows = []
  fetchMock.mockReset()
})
afterEach(() => vi.unstubAllGlobals())

const worker = () => import('./sw')

async function queue(...rows: (typeof ADA)[]) {
  const store = await openOutboxStore()
  for (const row of rows) await store.enqueue(inquiryItem(row), T0)
  return store
}

/** Runs the worker's 'sync' listener as the browser does, and waits for what it gave waitUntil. */
async function fireSync(tag = OUTBOX_SYNC_TAG): Promise<unknown> {
  await worker()
  let waited: Promise<unknown> = Promise.resolve('not waited')
  syncListener?.({ tag, waitUntil: (promise) => (waited = promise) })
  return waited
}

/** What the backend answers a stored row (201, nothing else) or object (200 and its key). */
const created = (url?: unknown) =>
  String(url).includes('/storage/v1/')
    ? new Response(JSON.stringify({ Key: 'stored', Id: 'stored' }), { status: 200 })
    : new Response(null, { status: 201 })
const duplicate = () =>
  new Response(
    JSON.stringify({
      code: '23505',
      message: 'duplicate key value violates unique constraint "contact_submissions_pkey"',
    }),
    { status: 409 },
  )

test('on its tag, sends each queued row once with the anon key, empties the outbox and notes it', async () => {
  const store = await queue(ADA, BOB)
  fetchMock.mockImplementation(async (url) => created(url))
  await fireSync()

  expect(fetchMock).toHaveBeenCalledTimes(2)
  const [url, init] = fetchMock.mock.calls[0] ?? []
  expect(String(url)).toMatch(/\/rest\/v1\/contact_submissions$/)
  expect(init?.method).toBe('POST')
  // No row asked back: anon has no SELECT right.
  expect(new Headers(init?.headers).get('Prefer') ?? '').not.toContain('return=representation')
  const bodies = fetchMock.mock.calls.map(([, sent]) => JSON.parse(String(sent?.body)) as unknown)
  expect(bodies).toEqual(
    [ADA, BOB].map(({ id, key_id, sealed, mailbox_hash }) => ({
      id,
      key_id,
      sealed,
      mailbox_hash,
    })),
  )
  expect(await store.list()).toEqual([])
  // The next page says it went, once.
  const notes = await takeDeliveryNotes(null)
  expect(notes.map((note) => note.id).sort()).toEqual([ADA.id, BOB.id].sort())
  expect(Object.keys(notes[0] ?? {}).sort()).toEqual(['id', 'queued_at'])
  expect(await takeDeliveryNotes(null)).toEqual([])
  store.close()
})

test('a row the database already holds (409 on its id) counts as delivered: the same id, never a copy', async () => {
  const store = await queue(ADA)
  fetchMock.mockImplementation(async () => duplicate())
  await fireSync()
  expect(await store.list()).toEqual([])
  expect((await takeDeliveryNotes(null)).map((note) => note.id)).toEqual([ADA.id])
  store.close()
})

test('no answer: the row stays, and the sync fails so that the browser tries again later', async () => {
  const store = await queue(ADA)
  fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
  await expect(fireSync()).rejects.toThrow(/still waiting/)
  expect((await store.list()).map((record) => [record.id, record.attempts])).toEqual([[ADA.id, 1]])
  expect(await takeDeliveryNotes(null)).toEqual([])
  store.close()
})

test('another tag, or a page of the site on screen: the worker sends nothing', async () => {
  const store = await queue(ADA)
  expect(await fireSync('something-else')).toBe('not waited')
  windows = [{ visibilityState: 'visible' }]
  expect(await fireSync()).toBeNull()
  expect(fetchMock).not.toHaveBeenCalled()
  // A hidden tab (frozen on a phone) does not send: the worker does.
  windows = [{ visibilityState: 'hidden' }]
  fetchMock.mockImplementation(async (url) => created(url))
  await fireSync()
  expect(fetchMock).toHaveBeenCalledTimes(1)
  store.close()
})

test('page and worker racing: one sender at a time, each row sent once', async () => {
  const store = await queue(ADA, BOB)
  // The page's round holds the lock while its first insert is on the wire.
  let answerPage = () => {}
  const pageSend = vi.fn<SendQueued>(
    () => new Promise((resolve) => (answerPage = () => resolve(DELIVERED))),
  )
  const pageRound = flushOutbox({
    store,
    send: pageSend,
    now: () => T0,
    withLock: outboxLock(LOCK_NAME),
    ignoreSchedule: true,
  })
  await vi.waitFor(() => expect(pageSend).toHaveBeenCalledTimes(1))

  // The connection is back and the browser fires 'sync' meanwhile: the worker skips its round.
  fetchMock.mockImplementation(async (url) => created(url))
  const workerRound = (await fireSync()) as Awaited<ReturnType<typeof flushOutbox>>
  expect(workerRound.skipped).toBe(true)
  expect(fetchMock).not.toHaveBeenCalled()

  answerPage()
  await vi.waitFor(() => expect(pageSend).toHaveBeenCalledTimes(2))
  answerPage()
  const page = await pageRound
  expect(page.delivered.map((record) => record.id)).toEqual([ADA.id, BOB.id])
  // A later sync finds nothing left to send.
  await fireSync()
  expect(fetchMock).not.toHaveBeenCalled()
  expect(await takeDeliveryNotes(null)).toEqual([])
  store.close()
})

async function queueWithFiles(count: number) {
  const store = await openOutboxStore()
  const row = { ...ADA, mailbox_hash: `\\x${'a'.repeat(64)}` }
  const attachments = Array.from({ length: count }, (_, index) => ({
    object: `${ADA.id}/3b2f8a8e-6f4b-4c1a-9d2e-0c5b7e1f2a3${index}`,
    ciphertext: new Blob([new Uint8Array([1, 2, 3, index])], { type: 'application/octet-stream' }),
  }))
  await store.enqueue({ kind: 'inquiry', row, attachments }, T0)
  return { store, attachments }
}

const storageRefusal = (statusCode: string, message: string) =>
  new Response(JSON.stringify({ statusCode, error: 'refused', message }), { status: 400 })

test('an inquiry with files: each file stored first (insert only, as supabase-js sends a Blob), then its row', async () => {
  const { store, attachments } = await queueWithFiles(2)
  fetchMock.mockImplementation(async (url) => created(url))
  await fireSync()

  const calls = fetchMock.mock.calls.map(([url, init]) => ({ url: String(url), init }))
  expect(calls.map(({ url }) => url)).toEqual([
    ...attachments.flatMap(({ object }) => [
      expect.stringMatching(/\/rest\/v1\/rpc\/reserve_attachment$/),
      expect.stringMatching(new RegExp(`/storage/v1/object/contact-attachments/${object}$`)),
    ]),
    expect.stringMatching(/\/rest\/v1\/contact_submissions$/),
  ])
  // Each file announced with its name and size before its upload.
  expect(calls.filter(({ url }) => url.includes('/rpc/')).map(({ init }) => init?.body)).toEqual(
    attachments.map(({ object }) => JSON.stringify({ object_name: object, byte_count: 4 })),
  )
  const uploads = calls.filter(({ url }) => url.includes('/storage/v1/'))
  for (const [index, { init }] of uploads.entries()) {
    expect(init?.method).toBe('POST')
    expect(new Headers(init?.headers).get('x-upsert')).toBe('false')
    const form = init?.body as FormData
    const file = form.get('') as Blob
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, index]))
    expect(file.type).toBe('application/octet-stream')
  }
  expect(await store.list()).toEqual([])
  expect((await takeDeliveryNotes(null)).map((note) => note.id)).toEqual([ADA.id])
  store.close()
})

test('a file already stored by an earlier try (409) counts as stored; the row still goes once', async () => {
  const { store } = await queueWithFiles(1)
  fetchMock.mockImplementation(async (url) =>
    String(url).includes('/storage/v1/')
      ? storageRefusal('409', 'The resource already exists')
      : created(url),
  )
  await fireSync()
  // Announced, answered 409, then the row.
  expect(fetchMock).toHaveBeenCalledTimes(3)
  expect(await store.list()).toEqual([])
  store.close()
})

test('a file not stored (no answer) keeps the inquiry waiting and sends no row naming it', async () => {
  const { store } = await queueWithFiles(2)
  let uploads = 0
  fetchMock.mockImplementation(async (url) => {
    if (String(url).includes('/storage/v1/') && ++uploads === 2)
      throw new TypeError('Failed to fetch')
    return created(url)
  })
  await expect(fireSync()).rejects.toThrow(/still waiting/)
  // The first file, then the second one failing: no row was posted.
  expect(uploads).toBe(2)
  expect(
    fetchMock.mock.calls.some(([url]) => String(url).includes('/rest/v1/contact_submissions')),
  ).toBe(false)
  const [left] = await store.list()
  expect(left).toMatchObject({ id: ADA.id, state: 'pending' })
  store.close()
})

test('a file the bucket refuses leaves the inquiry for the visitor to review, as on the page', async () => {
  const { store } = await queueWithFiles(1)
  vi.spyOn(console, 'error').mockImplementation(() => {})
  fetchMock.mockImplementation(async (url) =>
    String(url).includes('/rpc/')
      ? created(url)
      : storageRefusal('403', 'new row violates row-level security policy'),
  )
  await fireSync()
  expect(fetchMock).toHaveBeenCalledTimes(2)
  const [left] = await store.list()
  expect(left).toMatchObject({ id: ADA.id, state: 'needs-attention' })
  store.close()
})
