import { loadBackend, notLoaded } from '../../lib/load-backend'
import { outbox } from '../outbox/use-outbox'
import type { RepliesDependencies } from './replies-reader'

// Loaded when the visitor presses "Open": the crypto, the Supabase client, the thread's calls.
const crypto = () => import('./open-conversation')

/**
 * What /replies uses in the browser: the crypto (which also fetches and opens a reply's
 * files), Supabase, the contact form's outbox.
 */
export const browserRepliesDependencies: RepliesDependencies = {
  open: async (text) => {
    const opened = await (await crypto()).openConversation(text)
    // Writing back may have to queue offline: fetch the outbox's storage code while online.
    if (opened.kind === 'opened') outbox.preload()
    return opened
  },
  followUp: (conversation) => ({
    seal: async (body, id, now, place) =>
      (await crypto()).sealFollowUp(body, conversation, id, now, place),
    send: (message) => loadBackend().then(({ addToThread }) => addToThread(message), notLoaded),
    enqueue: (item) => outbox.enqueue(item),
    isOnline: () => navigator.onLine,
  }),
  download: async (file, conversation) => (await crypto()).downloadReplyFile(file, conversation),
}
