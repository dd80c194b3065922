/**
 * What the hashing worker does (sha256-worker.ts is its entry; sha256-in-worker-browser.ts starts
 * it and speaks to it). SHA-256 is about half of a file's seal (src/features/contact/README.md,
 * "Attachments, measured"); on its own thread it runs beside the cipher instead of after it, on
 * every phone with a second core. hash-wasm's SHA-256, as the page would use; the worker's policy
 * is the site's (its script is served with the same headers), which allows WebAssembly.
 *
 * Each seal is a session: 'start', then 'update' with each slice (its own copy, transferred), then
 * 'digest'. Every slice is answered with 'hashed' (how far the page may run ahead is its business),
 * a failure with 'failed'. Nothing else: no storage, no network, no logs.
 */
import { createSHA256, type IHasher } from 'hash-wasm'
import type { Sha256Reply, Sha256Request } from './sha256-messages'

/** The worker's global scope, as far as this uses it. */
export type Sha256WorkerScope = {
  postMessage(message: Sha256Reply): void
  onmessage: ((event: MessageEvent<Sha256Request>) => void) | null
}

/** The bench's slowdown is paid in sleeps of at least this long (timers are coarser below it). */
export const SLOWDOWN_QUANTUM_MS = 10

/**
 * Makes `run(work)` take `slowdown` times as long as `work` did, as on a CPU that much slower:
 * `npm run bench` asks for it (only in its own build, see sha256-in-worker-browser.ts), because
 * DevTools' CPU throttling slows the page but not its workers. The extra time is slept, not spun
 * (DevTools suspends a throttled page the same way), so this thread leaves the core to others as
 * a phone's second core would; it is owed until a quantum's worth has built up. At 1 (everywhere
 * else) nothing waits.
 */
export function slowedBy(
  slowdown: number,
  now = () => performance.now(),
  sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms)),
) {
  let owed = 0
  const pay = async (atLeast: number) => {
    if (owed < atLeast || owed <= 0) return
    const started = now()
    await sleep(owed)
    owed -= now() - started
  }
  return {
    async run<T>(work: () => T): Promise<T> {
      const started = now()
      const result = work()
      if (slowdown > 1) owed += (now() - started) * (slowdown - 1)
      await pay(SLOWDOWN_QUANTUM_MS)
      return result
    },
    /** Pays what is still owed (before the last answer). */
    settle: () => pay(0),
  }
}

/** Answers the page's requests on `scope`; says 'ready' once hash-wasm is compiled. */
export function serveSha256(scope: Sha256WorkerScope): void {
  // Each session's hasher, as a chain: a slice waits for the one before it (and for the start).
  type Session = { hasher: IHasher; slowed: ReturnType<typeof slowedBy> }
  const sessions = new Map<number, Promise<Session>>()

  const failed = (session: number, error: unknown) => {
    sessions.delete(session)
    scope.postMessage({ kind: 'failed', session, message: String(error) })
  }

  scope.onmessage = ({ data: request }) => {
    const { session } = request
    if (request.kind === 'start') {
      const started = createSHA256().then((hasher) => ({
        hasher: hasher.init(),
        slowed: slowedBy(request.slowdown),
      }))
      sessions.set(session, started)
      started.catch((error: unknown) => failed(session, error))
      return
    }
    if (request.kind === 'abort') {
      sessions.delete(session)
      return
    }
    const running = sessions.get(session)
    if (!running) return failed(session, new Error('no such session'))
    if (request.kind === 'update') {
      const next = running.then(async (state) => {
        await state.slowed.run(() => state.hasher.update(request.data))
        scope.postMessage({ kind: 'hashed', session, bytes: request.data.byteLength })
        return state
      })
      sessions.set(session, next)
      // The page takes the first failure of a session and forgets it; later ones find nothing.
      next.catch((error: unknown) => failed(session, error))
      return
    }
    sessions.delete(session)
    running
      .then(async (state) => {
        const digest = await state.slowed.run(() => state.hasher.digest('binary'))
        await state.slowed.settle()
        scope.postMessage({ kind: 'digest', session, digest })
      })
      .catch((error: unknown) => failed(session, error))
  }

  // Compiled before the first file, so the first slice does not wait for it.
  createSHA256().then(
    () => scope.postMessage({ kind: 'ready', session: 0 }),
    (error: unknown) => failed(0, error),
  )
}
