import { ZodError } from 'zod'
import type { ContactSubmission } from './contact-schema'
import { requestOutboxFlush } from './outbox-events-browser'
import { openOutbox, type Outbox } from './outbox-store'
import { sendToSupabase } from './send-to-supabase'
import type { SubmitDependencies } from './submit-contact'

let outbox: Promise<Outbox> | undefined

/** The page's one outbox connection, opened on first use. Browser only. */
function pageOutbox(): Promise<Outbox> {
  outbox ??= openOutbox(undefined, () => (outbox = undefined)).catch((error: unknown) => {
    outbox = undefined
    throw error
  })
  return outbox
}

/**
 * Runs `use` on the page's outbox connection. The cached connection can die under us without a
 * close event (WebKit drops it when a backgrounded tab returns), so when `use` fails the
 * connection is dropped and `use` runs once more on a fresh one; a second failure goes to the
 * caller. A submission the schema refuses is not retried: a new connection would not change that.
 */
export async function withPageOutbox<T>(use: (outbox: Outbox) => Promise<T>): Promise<T> {
  const current = pageOutbox()
  try {
    return await use(await current)
  } catch (error) {
    if (error instanceof ZodError) throw error
    // Another caller may already have replaced it.
    if (outbox === current) {
      outbox = undefined
      ;(await current).close()
    }
    return use(await pageOutbox())
  }
}

async function enqueue(submission: ContactSubmission): Promise<void> {
  await withPageOutbox((opened) => opened.enqueue(submission, Date.now()))
  requestOutboxFlush()
}

/** What the contact form uses in the browser: Supabase, the IndexedDB outbox, `navigator.onLine`. */
export const browserSubmitDependencies: SubmitDependencies = {
  send: sendToSupabase,
  enqueue,
  isOnline: () => navigator.onLine,
}
