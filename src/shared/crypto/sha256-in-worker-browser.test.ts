import { sha256 } from '@noble/hashes/sha2.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AHEAD_BYTES, startSha256Worker } from './sha256-in-worker-browser'
import { createWasmSealEngine } from './wasm-seal-engine'
import { slowedBy, SLOWDOWN_QUANTUM_MS } from './sha256-worker-core'
import { InProcessWorker } from './sha256-worker-test-fixtures'
import type { Sha256Reply, Sha256Request } from './sha256-messages'
import { unreadableBlob } from './blob-test-fixtures'
import { sealFile } from './seal-file'

afterEach(() => {
  vi.unstubAllGlobals()
})

const slices = (total: number, slice: number) => {
  const data = new Uint8Array(total).map((_, i) => (i * 31) % 251)
  const parts: Uint8Array[] = []
  for (let at = 0; at < total; at += slice) parts.push(data.subarray(at, at + slice))
  return { data, parts }
}

/** A worker that starts, then answers nothing until told to: the page's side alone. */
class SilentWorker {
  /** The last one made. */
  static made: SilentWorker[] = []
  onmessage: ((event: MessageEvent<Sha256Reply>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null
  onmessageerror: (() => void) | null = null
  readonly requests: Sha256Request[] = []
  constructor() {
    SilentWorker.made.unshift(this)
    setTimeout(() => this.reply({ kind: 'ready', session: 0 }))
  }
  reply(message: Sha256Reply) {
    this.onmessage?.({ data: message } as MessageEvent<Sha256Reply>)
  }
  postMessage(request: Sha256Request) {
    this.requests.push(request)
  }
  terminate() {}
}

describe('startSha256Worker', () => {
  it('hashes a file given in slices to the SHA-256 of the whole, one session per file', async () => {
    vi.stubGlobal('Worker', InProcessWorker)
    const worker = await startSha256Worker()
    for (const [total, slice] of [
      [0, 1],
      [1, 1],
      [200_000, 65_536],
      [300_001, 7_000],
    ] as const) {
      const { data, parts } = slices(total, slice)
      const hasher = worker.hasher()!
      for (const part of parts) await hasher.update(part)
      expect(await hasher.digest(), `${total}`).toEqual(sha256(data))
    }
  })

  it('sends each slice as a copy, so the page may keep its own', async () => {
    vi.stubGlobal('Worker', InProcessWorker)
    const worker = await startSha256Worker()
    const hasher = worker.hasher()!
    const part = new Uint8Array([1, 2, 3])
    await hasher.update(part)
    part.fill(0)
    expect(await hasher.digest()).toEqual(sha256(new Uint8Array([1, 2, 3])))
  })

  it('makes the page wait once the worker is more than AHEAD_BYTES behind, until it catches up', async () => {
    vi.stubGlobal('Worker', SilentWorker)
    const worker = await startSha256Worker()
    const hasher = worker.hasher()!
    const slice = new Uint8Array(1024 * 1024)
    for (let sent = 0; sent < AHEAD_BYTES; sent += slice.byteLength) {
      expect(hasher.update(slice)).toBeUndefined()
    }
    let resumed = false
    const waiting = Promise.resolve(hasher.update(slice)).then(() => (resumed = true))
    await new Promise((wait) => setTimeout(wait, 20))
    expect(resumed).toBe(false)
    SilentWorker.made[0]!.reply({ kind: 'hashed', session: 1, bytes: slice.byteLength })
    await waiting
    expect(resumed).toBe(true)
  })

  it('fails the seal in flight when the worker fails, and each later slice', async () => {
    vi.stubGlobal('Worker', SilentWorker)
    const worker = await startSha256Worker()
    const hasher = worker.hasher()!
    expect(hasher.update(new Uint8Array(8))).toBeUndefined()
    SilentWorker.made[0]!.reply({
      kind: 'failed',
      session: 1,
      message: 'RuntimeError: unreachable',
    })
    expect(() => hasher.update(new Uint8Array(8))).toThrow('unreachable')
    await expect(hasher.digest()).rejects.toThrow('unreachable')
  })

  it('once the worker breaks, fails the seal in flight and takes no more', async () => {
    vi.stubGlobal('Worker', SilentWorker)
    const worker = await startSha256Worker()
    const hasher = worker.hasher()!
    hasher.update(new Uint8Array(8))
    const digest = hasher.digest()
    SilentWorker.made[0]!.onerror?.({ message: 'out of memory' } as ErrorEvent)
    await expect(digest).rejects.toThrow('out of memory')
    expect(worker.hasher()).toBeNull()
  })

  it('the engine hashes on the page once its worker has broken', async () => {
    vi.stubGlobal('Worker', InProcessWorker)
    const engine = await createWasmSealEngine()
    const made = InProcessWorker.made[0]!
    made.onerror?.({ message: 'out of memory' } as ErrorEvent)
    const hasher = await engine.sha256()
    await hasher.update(new Uint8Array([1, 2, 3]))
    expect(await hasher.digest()).toEqual(sha256(new Uint8Array([1, 2, 3])))
    expect(made.requests).toEqual([])
  })

  it('breaks down alike when a reply cannot be read', async () => {
    vi.stubGlobal('Worker', SilentWorker)
    const worker = await startSha256Worker()
    const digest = worker.hasher()!.digest()
    SilentWorker.made[0]!.onmessageerror?.()
    await expect(digest).rejects.toThrow('could not be read')
    expect(worker.hasher()).toBeNull()
  })

  it('drops a hash given up (a seal that failed) on both sides, releasing a page that waits', async () => {
    vi.stubGlobal('Worker', SilentWorker)
    const worker = await startSha256Worker()
    const hasher = worker.hasher()!
    const waiting = hasher.update(new Uint8Array(AHEAD_BYTES + 1))
    expect(waiting).toBeInstanceOf(Promise)
    hasher.abort!()
    await waiting
    await expect(hasher.digest()).rejects.toThrow('given up')
    expect(SilentWorker.made[0]!.requests.at(-1)).toEqual({ kind: 'abort', session: 1 })
  })

  it('a seal that cannot read its file drops its hash in the worker', async () => {
    vi.stubGlobal('Worker', InProcessWorker)
    const engine = await createWasmSealEngine()
    const { generateIdentity, identityToRecipient } = await import('age-encryption')
    const recipient = await identityToRecipient(await generateIdentity())
    await expect(
      sealFile(unreadableBlob(), [recipient], undefined, { engine }),
    ).rejects.toMatchObject({
      reason: 'file-unreadable',
    })
    expect(InProcessWorker.made[0]!.requests.map((request) => request.kind)).toEqual([
      'start',
      'abort',
    ])
  })

  it('rejects when the worker cannot start, so the engine hashes on the page', async () => {
    vi.stubGlobal(
      'Worker',
      class extends SilentWorker {
        constructor() {
          super()
          setTimeout(() => this.onerror?.({ message: 'refused by policy' } as ErrorEvent))
        }
        override reply() {}
      },
    )
    await expect(startSha256Worker()).rejects.toThrow('refused by policy')
    vi.stubGlobal('Worker', undefined)
    await expect(startSha256Worker()).rejects.toThrow()
  })

  it('asks for no slowdown outside the bench build, whatever the page says', async () => {
    vi.stubGlobal('benchCpuSlowdown', 4)
    const made: InProcessWorker[] = []
    vi.stubGlobal(
      'Worker',
      class extends InProcessWorker {
        constructor() {
          super()
          made.push(this)
        }
      },
    )
    const worker = await startSha256Worker()
    worker.hasher()
    expect(made[0]!.requests).toEqual([{ kind: 'start', session: 1, slowdown: 1 }])
  })
})

describe('slowedBy', () => {
  it('makes the work take (slowdown) times as long, sleeping once a quantum is owed', async () => {
    let clock = 0
    const slept: number[] = []
    const sleep = async (ms: number) => {
      slept.push(ms)
      clock += ms
    }
    const work = (ms: number) => () => {
      clock += ms
      return ms
    }
    const slowed = slowedBy(4, () => clock, sleep)
    // 2 ms of work owes 6; the quantum (10 ms) is not reached, so nothing sleeps yet.
    expect(await slowed.run(work(2))).toBe(2)
    expect(slept).toEqual([])
    // 2 more owes 12 in all: slept at once.
    await slowed.run(work(2))
    expect(slept).toEqual([12])
    await slowed.run(work(1))
    await slowed.settle()
    expect(slept).toEqual([12, 3])
    // 5 ms of work took 20 in all: 4x.
    expect(clock).toBe(20)
  })

  it('never sleeps at 1', async () => {
    const sleep = vi.fn(async () => undefined)
    const slowed = slowedBy(1, () => 0, sleep)
    await slowed.run(() => undefined)
    await slowed.settle()
    expect(sleep).not.toHaveBeenCalled()
    expect(SLOWDOWN_QUANTUM_MS).toBeGreaterThan(0)
  })
})
