import { useEffect, useSyncExternalStore } from 'react'
import { showToast } from '../../../components/toast/toast-store'
import type { SealedRow } from '../../../shared/database-types'
import type { FlushResult } from './outbox-flush'
import { formatQueuedAt, outboxCopy } from './outbox-copy'
import {
  existingDatabases,
  NO_COUNTS,
  OUTBOX_DB_NAME,
  retryDelay,
  RETRY_CAP_MS,
  type OutboxCounts,
} from './outbox-definitions'
import type { OutboxRecord, OutboxStore } from './outbox-store'

type SubmitToasts = typeof import('../contact-copy').submitToasts

/**
 * The outbox's one owner. It alone listens for the triggers (start, `online`, `visibilitychange`,
 * a message queued), holds the single retry timer, and publishes the counts: to this page through
 * `useOutbox`, and to the other tabs with one BroadcastChannel message. Sending is serialised
 * across tabs by a Web Lock. Nothing else opens the outbox, counts or schedules. Browser only:
 * nothing here runs before `start`, which only an effect calls.
 */

type Snapshot = { online: boolean; counts: OutboxCounts }

const CHANNEL_NAME = 'contact-outbox'
const LOCK_NAME = 'contact-outbox-send'
const SERVER_SNAPSHOT: Snapshot = { online: true, counts: NO_COUNTS }

let snapshot = SERVER_SNAPSHOT
const listeners = new Set<() => void>()
let store: Promise<OutboxStore> | null = null
let retryTimer: ReturnType<typeof setTimeout> | undefined
let failedLoads = 0
let channel: BroadcastChannel | null = null
let users = 0

function update(next: Partial<Snapshot>): void {
  snapshot = { ...snapshot, ...next }
  listeners.forEach((listener) => listener())
}

/** Shows counts this tab has just changed, and tells the other tabs at once. */
function publish(counts: OutboxCounts): void {
  update({ counts })
  channel?.postMessage(counts)
}

/**
 * Runs `use` on the page's one connection. WebKit can drop a backgrounded tab's connection without
 * a close event, and a newer version may close it to upgrade: on failure, reopen once and retry.
 */
async function withStore<T>(use: (opened: OutboxStore) => Promise<T>): Promise<T> {
  // The store's code (and idb) loads with the first use: pages whose visitor never queued skip it.
  const open = () =>
    (store ??= import('./outbox-store')
      .then(({ openOutboxStore }) => openOutboxStore())
      .catch((error: unknown) => ((store = null), Promise.reject(error))))
  const current = open()
  try {
    return await use(await current)
  } catch {
    if (store === current) {
      store = null
      void current.then(
        (opened) => opened.close(),
        () => {},
      )
    }
    return use(await open())
  }
}

function schedule(at: number | null): void {
  clearTimeout(retryTimer)
  retryTimer =
    at === null ? undefined : setTimeout(() => void flush(), Math.max(0, at - Date.now()))
}

async function flush(options: { ignoreSchedule?: boolean } = {}): Promise<void> {
  schedule(null)
  // Nothing is requested while offline; `online` flushes again.
  if (!navigator.onLine) return
  let result: FlushResult
  let submitToasts: SubmitToasts
  try {
    // Loaded on demand: a page whose visitor never queued anything downloads none of this.
    const [{ flushOutbox }, { outboxLock }, { sendSealed }, copy] = await Promise.all([
      import('./outbox-flush'),
      import('./outbox-lock'),
      import('../send-to-supabase'),
      import('../contact-copy'),
    ])
    submitToasts = copy.submitToasts
    const withLock = outboxLock(LOCK_NAME)
    result = await withStore((opened) =>
      flushOutbox({ store: opened, send: sendSealed, now: Date.now, withLock, ...options }),
    )
    failedLoads = 0
  } catch (error) {
    // Phones fire `online` before the network works, so the outbox code may not load yet (a
    // TypeError): try again on the backoff while anything waits.
    if (!(error instanceof TypeError))
      console.error('The contact outbox could not be flushed:', error)
    failedLoads += 1
    if (snapshot.counts.pending > 0) schedule(Date.now() + retryDelay(failedLoads))
    return
  }
  result.delivered.forEach(() => showToast({ ...submitToasts.sent, variant: 'success' }))
  announceRefused(result, submitToasts)
  if (result.skipped) {
    // The holder of the lock schedules the retries; keep a slow fallback in case that tab closes.
    update({ counts: result.counts })
    if (result.counts.pending > 0 && retryTimer === undefined) schedule(Date.now() + RETRY_CAP_MS)
    return
  }
  publish(result.counts)
  schedule(result.nextAttemptAt)
}

/**
 * One toast for a round's refusals, so none hides another: one message names its time and its
 * reason; several say how many, and point to the review, which lists each one. Its group is the
 * messages' ids: news of the same messages (a resend refused again) replaces the older toast,
 * while another round's refusals stand beside it.
 */
function announceRefused({ refused, counts }: FlushResult, submitToasts: SubmitToasts): void {
  refused.forEach(({ detail }) => console.error('A queued contact message was refused:', detail))
  const [first] = refused
  if (!first) return
  showToast({
    title: submitToasts.failed.title,
    description:
      refused.length === 1
        ? submitToasts.queuedRefused(formatQueuedAt(first.record.queued_at), first.message)
        : submitToasts.queuedRefusedSeveral(
            refused.length,
            outboxCopy.notDelivered(counts.needsAttention),
          ),
    variant: 'destructive',
    group: `outbox-refused:${refused.map(({ record }) => record.id).join(',')}`,
  })
}

/** On start and when the page becomes visible: show what waits, and send it. */
async function refresh(): Promise<void> {
  const names = await existingDatabases().catch(() => null)
  // Never queued anything: create nothing. Where the browser cannot list its databases (Firefox
  // before 126), open it anyway: a message may wait there.
  if (names && !names.has(OUTBOX_DB_NAME)) return
  const counts = await withStore((opened) => opened.counts())
  update({ counts })
  if (counts.pending > 0) await flush()
}

function start(): () => void {
  users += 1
  if (users > 1) return stop
  const onConnection = () => update({ online: navigator.onLine })
  const onOnline = () => void flush({ ignoreSchedule: true })
  const onVisible = () =>
    document.visibilityState === 'visible' ? void refresh().catch(report) : undefined
  onConnection()
  if (typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel(CHANNEL_NAME)
    channel.onmessage = (event: MessageEvent<OutboxCounts>) => {
      update({ counts: event.data })
      // Whoever sends may close its tab: keep a slow fallback while anything waits.
      if (event.data.pending > 0 && retryTimer === undefined) schedule(Date.now() + RETRY_CAP_MS)
    }
  }
  window.addEventListener('online', onConnection)
  window.addEventListener('offline', onConnection)
  window.addEventListener('online', onOnline)
  document.addEventListener('visibilitychange', onVisible)
  void refresh().catch(report)

  function stop() {
    users -= 1
    if (users > 0) return
    schedule(null)
    channel?.close()
    channel = null
    window.removeEventListener('online', onConnection)
    window.removeEventListener('offline', onConnection)
    window.removeEventListener('online', onOnline)
    document.removeEventListener('visibilitychange', onVisible)
  }
  return stop
}

function report(error: unknown): void {
  console.error('The contact outbox could not be read:', error)
}

/** What the form and the review use. Each change publishes the counts at once. */
export const outbox = {
  /** Fetches what queuing needs (the store and idb) while the network is there: the form calls it as the visitor starts. */
  prepare(): void {
    // Both, so that a message can still be queued if the connection drops before Send.
    import('./outbox-store').catch(() => undefined)
    import('idb').catch(() => undefined)
  },
  /**
   * Queues a sealed row and tries to send it straight away (nothing is requested offline). Once
   * `signal` has aborted (the form gave up waiting for the store and kept the values), it stores
   * nothing: the visitor was told the message is still in the form, not on the device.
   */
  async enqueue(row: SealedRow, signal?: AbortSignal): Promise<void> {
    const counts = await withStore(async (opened) => {
      if (signal?.aborted) return null
      await opened.enqueue(row, Date.now())
      return opened.counts()
    })
    if (counts === null) return
    publish(counts)
    void flush()
  },
  async list(): Promise<OutboxRecord[]> {
    return withStore((opened) => opened.list())
  },
  async resend(id: string): Promise<void> {
    publish(
      await withStore(async (opened) => {
        await opened.mark(id, {
          state: 'pending',
          attempts: 0,
          next_attempt_at: Date.now(),
          last_error: null,
        })
        return opened.counts()
      }),
    )
    await flush({ ignoreSchedule: true })
  },
  async discard(id: string): Promise<void> {
    publish(
      await withStore(async (opened) => {
        await opened.remove(id)
        return opened.counts()
      }),
    )
  },
}

/** The connection and the outbox's counts, for the status line. Starts the owner while mounted. */
export function useOutbox(): Snapshot {
  useEffect(start, [])
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => snapshot,
    () => SERVER_SNAPSHOT,
  )
}
