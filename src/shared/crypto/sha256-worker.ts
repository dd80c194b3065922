/**
 * The hashing worker's entry (its work is in sha256-worker-core.ts): Vite builds it into a file of
 * its own, `assets/sha256-worker-<hash>.js`, which the service worker precaches with the rest.
 */
import { serveSha256, type Sha256WorkerScope } from './sha256-worker-core'

serveSha256(self as unknown as Sha256WorkerScope)
