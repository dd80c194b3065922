import type { ContactSubmission } from './contact-schema'
import { requestOutboxFlush } from './outbox-events-browser'
import { openOutbox, type Outbox } from './outbox-store'
import { sendToSupabase } from './send-to-supabase'
import type { SubmitDependencies } from './submit-contact'

let outbox: Promise<Outbox> | undefined

/** The page's one outbox connection, opened on first use. Browser only. */
export function pageOutbox(): Promise<Outbox> {
  outbox ??= openOutbox(undefined, () => (outbox = undefined)).catch((error: unknown) => {
    outbox = undefined
    throw error
  })
  return outbox
}

async function enqueue(submission: ContactSubmission): Promise<void> {
  try {
    await (await pageOutbox()).enqueue(submission, Date.now())
  } catch {
    // The cached connection may have died under us (WebKit drops it when a backgrounded tab
    // returns): open a fresh one and try once more; a second failure goes to the visitor.
    outbox = undefined
    await (await pageOutbox()).enqueue(submission, Date.now())
  }
  requestOutboxFlush()
}

/** What the contact form uses in the browser: Supabase, the IndexedDB outbox, `navigator.onLine`. */
export const browserSubmitDependencies: SubmitDependencies = {
  send: sendToSupabase,
  enqueue,
  isOnline: () => navigator.onLine,
}
