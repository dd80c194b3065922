/**
 * The one way to the sealer. `seal-submission.ts` (age and its curves, the receipt's BIP39 word
 * list and HKDF) is only ever imported dynamically from here, so content pages never load it; the
 * service worker precaches it like every other asset, so sealing works offline.
 */
import type * as SealSubmission from './seal-submission'

type Sealer = typeof SealSubmission

let sealer: Promise<Sealer> | undefined

/** Loads the sealing module once; rejects with the network's error if it cannot load. */
export function loadSealer(): Promise<Sealer> {
  sealer ??= import('./seal-submission').catch((cause: unknown) => {
    // Forget the failure, so the next attempt (back online, say) tries the network again.
    sealer = undefined
    throw cause
  })
  return sealer
}

let preloaded = false

/**
 * Starts loading the engine that seals files (and the sealer, if focusing the form has not
 * already): call it when the visitor attaches a file. A failure here is silent; sealing falls back
 * to its pure-JavaScript engine, or the submit's own `loadSealer()` reports it.
 */
export function preloadFileSealing(): void {
  loadSealer()
    .then((sealer) => sealer.preloadFileSealing())
    .catch(() => undefined)
}

/**
 * Starts loading the sealer without waiting for it: call it when the visitor first focuses or
 * changes the form, so sealing on submit waits neither for the network nor for the browser to
 * compile age (one throwaway seal, once per page). A failure here is silent; the submit's own
 * `loadSealer()` reports it.
 */
export function preloadSealer(): void {
  loadSealer()
    .then((sealer) => {
      if (preloaded) return
      preloaded = true
      return sealer.preload()
    })
    .catch(() => undefined)
}
