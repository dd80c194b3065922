import { siteEnv } from '../../lib/env'
import { outbox } from './outbox/use-outbox'
import { loadSealer, preloadSealer } from './sealing/load-sealer'
import { sendSealed } from './send-to-supabase'
import type { SubmitDependencies } from './submit-contact'

/** What the contact form uses in the browser: the age sealer, Supabase, the outbox, `navigator.onLine`. */
export const browserSubmitDependencies: SubmitDependencies = {
  prepare: preloadSealer,
  async seal(document) {
    const { sealSubmission } = await loadSealer()
    return sealSubmission(document, siteEnv.submissionKeys?.recipients ?? [])
  },
  send: sendSealed,
  enqueue: outbox.enqueue,
  isOnline: () => navigator.onLine,
}
