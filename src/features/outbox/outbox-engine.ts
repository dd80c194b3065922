import {
  CHANNEL_NAME,
  existingDatabases,
  LOCK_NAME,
  NO_COUNTS,
  OUTBOX_DB_NAME,
  retryDelay,
  RETRY_CAP_MS,
  type OutboxCounts,
} from './outbox-definitions'
import type { FlushResult, SendQueued } from './outbox-types'
import { outboxLock } from './outbox-lock'
import type { OutboxStore } from './outbox-store'
import type { OutboxItem, OutboxRecord } from './outbox-types'

/**
 * The outbox's owner on a page, without React. It alone listens for the triggers (start, `online`,
 * `visibilitychange`, a message queued), holds the single retry timer, and publishes the counts:
 * to this page through `subscribe`, and to the other tabs with one BroadcastChannel message.
 * Sending is serialised across tabs by a Web Lock. Nothing else opens the outbox, counts or
 * schedules. What it does to the world beyond the store (send, tell the visitor) it is given.
 * Browser only: nothing here runs before `start`, which only an effect calls.
 */

export type OutboxSnapshot = { online: boolean; counts: OutboxCounts }

/** What the page shows before the outbox starts, and in the prerender. */
export const SERVER_SNAPSHOT: OutboxSnapshot = { online: true, counts: NO_COUNTS }

export type OutboxEffects = {
  /** Sends one sealed item (the flush gives it no deadline: a round may wait on a slow link). */
  send: SendQueued
  /** Tells the visitor what a round delivered or had refused. */
  announce: (result: FlushResult) => void
  /**
   * Loads the code `send` and `announce` need. A flush waits for it first: where it cannot load
   * yet (phones fire `online` before the network works) it rejects with a TypeError, and the
   * flush tries again on the backoff without counting a failed send.
   */
  preload: () => Promise<void>
}

export type Outbox = ReturnType<typeof createOutbox>

// The store (with idb) and the round (with zod) load with their first use: a page whose visitor
// never queued anything downloads neither.
const loadStore = () => import('./outbox-store')

export function createOutbox(effects: OutboxEffects) {
  let snapshot = SERVER_SNAPSHOT
  const listeners = new Set<() => void>()
  let store: Promise<OutboxStore> | null = null
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let failedLoads = 0
  let channel: BroadcastChannel | null = null
  let users = 0

  function update(next: Partial<OutboxSnapshot>): void {
    snapshot = { ...snapshot, ...next }
    listeners.forEach((listener) => listener())
  }

  /** Shows counts this tab has just changed, and tells the other tabs at once. */
  function publish(counts: OutboxCounts): void {
    update({ counts })
    channel?.postMessage(counts)
  }

  /**
   * Runs `use` on the page's one connection. WebKit can drop a backgrounded tab's connection
   * without a close event, and a newer version may close it to upgrade: on failure, reopen once
   * and retry.
   */
  async function withStore<T>(use: (opened: OutboxStore) => Promise<T>): Promise<T> {
    const open = () =>
      (store ??= loadStore()
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

  /** Whoever sends may close its tab: keep a slow fallback while anything waits. */
  function scheduleFallback(counts: OutboxCounts): void {
    if (counts.pending > 0 && retryTimer === undefined) schedule(Date.now() + RETRY_CAP_MS)
  }

  async function flush(options: { ignoreSchedule?: boolean } = {}): Promise<void> {
    schedule(null)
    // Nothing is requested while offline; `online` flushes again.
    if (!navigator.onLine) return
    let result: FlushResult
    try {
      const [{ flushOutbox }] = await Promise.all([import('./outbox-flush'), effects.preload()])
      const withLock = outboxLock(LOCK_NAME)
      result = await withStore((opened) =>
        flushOutbox({ store: opened, send: effects.send, now: Date.now, withLock, ...options }),
      )
      failedLoads = 0
    } catch (error) {
      // The outbox's code may not load yet (a TypeError): try again on the backoff while
      // anything waits.
      if (!(error instanceof TypeError))
        console.error('The contact outbox could not be flushed:', error)
      failedLoads += 1
      if (snapshot.counts.pending > 0) schedule(Date.now() + retryDelay(failedLoads))
      return
    }
    effects.announce(result)
    if (result.skipped) {
      // The holder of the lock schedules the retries.
      update({ counts: result.counts })
      scheduleFallback(result.counts)
      return
    }
    publish(result.counts)
    schedule(result.nextAttemptAt)
  }

  /** On start and when the page becomes visible: show what waits, and send it. */
  async function refresh(): Promise<void> {
    const names = await existingDatabases().catch(() => null)
    // Never queued anything: create nothing. Where the browser cannot list its databases (Firefox
    // before 126), open it anyway: a message may wait there.
    if (names && !names.has(OUTBOX_DB_NAME)) return
    const counts = await withStore((opened) => opened.counts())
    update({ counts })
    // What the service worker sent while no page was open: "Message Sent Securely", once.
    const sent = await withStore((opened) => opened.takeSent(names))
    if (sent) effects.announce(sent)
    if (counts.pending > 0) await flush()
  }

  /** Starts listening (once however many components use it); the returned function stops. */
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
        scheduleFallback(event.data)
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

  return {
    start,
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getSnapshot: (): OutboxSnapshot => snapshot,
    /** Fetches what queuing needs (the store and idb) while the network is there. */
    preload(): void {
      loadStore().catch(() => undefined)
    },
    /**
     * Queues a sealed item and tries to send it straight away (nothing is requested offline). Once
     * `signal` has aborted (the form gave up waiting for the store and kept the values), it
     * stores nothing: the visitor was told the message is still in the form, not on the device.
     */
    async enqueue(item: OutboxItem, signal?: AbortSignal): Promise<void> {
      const counts = await withStore(async (opened) => {
        if (signal?.aborted) return null
        await opened.enqueue(item, Date.now())
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
}
