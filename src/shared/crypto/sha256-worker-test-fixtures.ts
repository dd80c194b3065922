/**
 * The hashing worker in the test's own process: the real sha256-worker-core.ts behind a `Worker`
 * that delivers each message on a later task, as a browser does. Node has no web workers, so
 * without it the WebAssembly engine hashes on the page and the worker's path goes untested.
 */
import { serveSha256, type Sha256WorkerScope } from './sha256-worker-core'
import type { Sha256Reply, Sha256Request } from './sha256-messages'

export class InProcessWorker {
  /** Every one made, the last first. */
  static made: InProcessWorker[] = []
  onmessage: ((event: MessageEvent<Sha256Reply>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null
  /** Every request the page sent, in order. */
  readonly requests: Sha256Request[] = []
  private readonly scope: Sha256WorkerScope = {
    onmessage: null,
    postMessage: (message) =>
      setTimeout(() => this.onmessage?.({ data: message } as MessageEvent<Sha256Reply>)),
  }

  constructor() {
    InProcessWorker.made.unshift(this)
    serveSha256(this.scope)
  }

  postMessage(message: Sha256Request) {
    this.requests.push(message)
    setTimeout(() => this.scope.onmessage?.({ data: message } as MessageEvent<Sha256Request>))
  }

  terminate() {
    this.scope.onmessage = null
  }
}
