/**
 * SHA-256 on a thread of its own (sha256-worker.ts), for the WebAssembly engine's seals: the page
 * encrypts a slice while the worker hashes the one before, so a file's seal costs the slower of
 * the two instead of their sum. Each slice is copied to the worker (the page still encrypts its
 * own), and the page waits once it is more than AHEAD_BYTES ahead of the hash, so a worker that
 * falls behind holds a few megabytes (AHEAD_BYTES and one slice at most), never the file.
 */
import type { Sha256Hasher } from './seal-file'
import type { Sha256Reply, Sha256Request } from './sha256-messages'

/** How many bytes of plaintext may wait in the worker before the page waits for it. */
export const AHEAD_BYTES = 4 * 1024 * 1024

/** How long the worker may take to start (fetch its script, compile WebAssembly) before the page hashes itself. */
const START_TIMEOUT_MS = 10_000

type Session = {
  waiting: number
  resume: (() => void) | null
  finish: { resolve(digest: Uint8Array): void; reject(error: Error): void } | null
  failure: Error | null
}

/** A worker that hashes; `hasher()` starts one file's SHA-256 in it, or is null once it has failed. */
export type Sha256Worker = { hasher(): Sha256Hasher | null }

/** True only in `npm run bench`'s own build of the site (VITE_BENCH_HOOKS=true; vite.config.ts). */
declare const __BENCH_HOOKS__: boolean | undefined

/**
 * DevTools' CPU throttling slows a page's main thread but not its workers (the protocol refuses to
 * throttle a worker), so the bench (tests/bench/attachments.ts) builds the site with its hooks on
 * and sets `benchCpuSlowdown` on the page when it slows the CPU: the worker then takes that many
 * times longer over each slice, as on a phone that much slower. In every other build this is 1
 * (the constant is false, and the rest folds away).
 */
function benchSlowdown(): number {
  if (typeof __BENCH_HOOKS__ === 'undefined' || !__BENCH_HOOKS__) return 1
  const asked = (globalThis as { benchCpuSlowdown?: unknown }).benchCpuSlowdown
  return typeof asked === 'number' && asked >= 1 ? asked : 1
}

/**
 * Starts the worker and waits until it has compiled its hash. Rejects when this browser cannot run
 * it (no module workers, a policy or a download that refuses it, a timeout): the engine then hashes
 * on the page.
 */
export async function startSha256Worker(): Promise<Sha256Worker> {
  const worker = new Worker(new URL('./sha256-worker.ts', import.meta.url), {
    type: 'module',
    name: 'sha256',
  })
  const sessions = new Map<number, Session>()
  let last = 0
  await new Promise<void>((ready, refuse) => {
    const timeout = setTimeout(
      () => refuse(new Error('the hashing worker did not start')),
      START_TIMEOUT_MS,
    )
    worker.onerror = (event) => {
      clearTimeout(timeout)
      refuse(new Error(`the hashing worker failed: ${event.message}`))
    }
    worker.onmessage = ({ data }: MessageEvent<Sha256Reply>) => {
      clearTimeout(timeout)
      if (data.kind === 'ready') ready()
      else refuse(new Error(data.kind === 'failed' ? data.message : 'unexpected reply'))
    }
  }).catch((error: unknown) => {
    worker.terminate()
    throw error
  })

  const fail = (session: Session, error: Error) => {
    session.failure ??= error
    session.resume?.()
    session.finish?.reject(session.failure)
  }
  // From here on a broken worker fails every seal in flight (each fails closed, 'encrypt-failed')
  // and takes no more: the next seal hashes on the page.
  let broken = false
  const breakDown = (why: string) => {
    broken = true
    for (const session of sessions.values()) fail(session, new Error(why))
    sessions.clear()
    worker.terminate()
  }
  worker.onerror = (event) => breakDown(`the hashing worker failed: ${event.message}`)
  // A reply that cannot be read leaves a seal waiting for it: as good as broken.
  worker.onmessageerror = () => breakDown('a reply from the hashing worker could not be read')
  worker.onmessage = ({ data }: MessageEvent<Sha256Reply>) => {
    const session = sessions.get(data.session)
    if (!session) return
    if (data.kind === 'hashed') {
      session.waiting -= data.bytes
      if (session.waiting <= AHEAD_BYTES) session.resume?.()
    } else if (data.kind === 'digest') {
      sessions.delete(data.session)
      session.finish?.resolve(data.digest)
    } else if (data.kind === 'failed') {
      sessions.delete(data.session)
      fail(session, new Error(data.message))
    }
  }
  const send = (request: Sha256Request, transfer: Transferable[] = []) =>
    worker.postMessage(request, transfer)

  return {
    hasher() {
      if (broken) return null
      last += 1
      const id = last
      const session: Session = { waiting: 0, resume: null, finish: null, failure: null }
      sessions.set(id, session)
      send({ kind: 'start', session: id, slowdown: benchSlowdown() })
      return {
        update(data) {
          if (session.failure) throw session.failure
          const copy = data.slice()
          session.waiting += copy.byteLength
          send({ kind: 'update', session: id, data: copy }, [copy.buffer])
          if (session.waiting <= AHEAD_BYTES) return
          return new Promise<void>((resume) => {
            session.resume = () => {
              session.resume = null
              resume()
            }
          })
        },
        digest() {
          if (session.failure) return Promise.reject(session.failure)
          return new Promise<Uint8Array>((resolve, reject) => {
            session.finish = { resolve, reject }
            send({ kind: 'digest', session: id })
          })
        },
        abort() {
          if (!sessions.delete(id)) return
          session.failure ??= new Error('the seal was given up')
          session.resume?.()
          if (!broken) send({ kind: 'abort', session: id })
        },
      }
    },
  }
}
