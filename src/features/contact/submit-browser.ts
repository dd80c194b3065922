import { siteEnv } from '../../lib/env'
import { outbox } from '../outbox/use-outbox'
import { loadBackend, notLoaded } from '../../lib/load-backend'
import type { SubmitDependencies } from './submit-contact'
import { loadSealer, preloadFileSealing, preloadSealer } from './sealing/load-sealer'

/** The name of the performance entry each seal leaves (read by tests/bench/sealing.ts). */
export const SEAL_MEASURE = 'contact:seal'

/**
 * What the contact form uses in the browser: the age sealer (which also makes the receipt),
 * Supabase, the outbox, `navigator.onLine`.
 */
export const browserSubmitDependencies: SubmitDependencies = {
  preload() {
    preloadSealer()
    loadBackend().catch(() => undefined)
    outbox.preload()
  },
  preloadFiles: preloadFileSealing,
  // A loader that cannot load rejects, and the submit fails closed with the general reason.
  async seal(draft, receipt, earlierFiles, onSealedBytes) {
    const { sealInquiry } = await loadSealer()
    // A performance entry (no content, only a duration) so `npm run bench` can time the sealing.
    const started = performance.now()
    try {
      return await sealInquiry(
        draft,
        siteEnv.submissionKeys?.recipients ?? [],
        receipt,
        earlierFiles,
        onSealedBytes,
      )
    } finally {
      performance.measure(SEAL_MEASURE, { start: started })
    }
  },
  // Unbounded here on purpose: submitContact's deadline covers a load that stalls.
  send: (row, signal) =>
    loadBackend().then(({ insertInquiry }) => insertInquiry(row, signal), notLoaded),
  upload: (files, onProgress) =>
    loadBackend().then(({ uploadAttachments }) => uploadAttachments(files, onProgress), notLoaded),
  enqueue: outbox.enqueue,
  isOnline: () => navigator.onLine,
}
