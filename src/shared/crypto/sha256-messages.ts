/** What the page and the hashing worker (sha256-worker.ts) say to each other. */

/** The page to the worker: one session per file, its slices in order, then a digest or an abort. */
export type Sha256Request =
  | { kind: 'start'; session: number; slowdown: number }
  | { kind: 'update'; session: number; data: Uint8Array }
  | { kind: 'digest'; session: number }
  /** The seal ended without a digest (the file could not be read): the session is dropped. */
  | { kind: 'abort'; session: number }

/** The worker to the page ('ready' and a failure to start come as session 0). */
export type Sha256Reply =
  | { kind: 'ready'; session: 0 }
  | { kind: 'hashed'; session: number; bytes: number }
  | { kind: 'digest'; session: number; digest: Uint8Array }
  | { kind: 'failed'; session: number; message: string }
