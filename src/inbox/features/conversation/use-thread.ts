import { useCallback, useEffect, useState } from 'react'
import { inboxEnv } from '../../lib/inbox-env'
import type { Inquiry } from '../inquiries/inquiry'
import type { ThreadEntry } from './thread'

/**
 * The open inquiry's thread, for the app (its one owner, with the key): loaded from the database
 * and opened with the unlocked identities when an inquiry with a thread is open, reloaded when a
 * visitor's new message is seen (awaiting_reply_since changes) or a reply is sent, dropped when
 * the inquiry closes or the key locks. Opened messages live in this state only.
 */

export type ThreadState =
  /** No inquiry open, or one with no thread (sent before sealed replies, or not opened). */
  | { kind: 'none' }
  | { kind: 'loading' }
  /** `inquiryId`: whose thread it is, so another inquiry's never shows, not even for a frame. */
  | { kind: 'loaded'; inquiryId: string; entries: ThreadEntry[] }
  | { kind: 'failed'; offline: boolean }

export type ReplyOutcome = 'sent' | 'offline' | 'closed' | 'failed' | 'unsealable'

// The reply's code (age, the thread's opening, the database calls) loads with the key's, after
// sign-in: never on the first screen.
const loadCode = () =>
  Promise.all([
    import('../inquiries/inbox-data'),
    import('./thread'),
    import('./seal-reply'),
    import('../../../shared/conversation/thread-message'),
  ])

/** The visitor's reply recipient, from inside their sealed inquiry; null without a thread. */
export const replyToOf = (inquiry: Inquiry | null) =>
  inquiry && 'document' in inquiry.opened ? (inquiry.opened.document.reply_to ?? null) : null

export function useThread(
  inquiry: Inquiry | null,
  identities: readonly string[] | null,
  onInquiryChanged: (inquiry: Inquiry) => void,
) {
  const [thread, setThread] = useState<ThreadState>({ kind: 'none' })
  // Bumped to load the thread again (after a reply, or "Try again").
  const [version, setVersion] = useState(0)
  const inquiryId = inquiry?.id ?? null
  const replyTo = replyToOf(inquiry)
  const awaitingSince = inquiry?.awaiting_reply_since ?? null

  useEffect(() => {
    if (!inquiryId || !replyTo || !identities) {
      setThread({ kind: 'none' })
      return
    }
    let current = true
    // A reload keeps the thread shown until the new one is opened.
    setThread((shown) =>
      shown.kind === 'loaded' && shown.inquiryId === inquiryId ? shown : { kind: 'loading' },
    )
    void (async () => {
      try {
        const [{ loadThreadRows }, { openThread }] = await loadCode()
        const entries = await openThread(await loadThreadRows(inquiryId), inquiryId, identities)
        if (current) setThread({ kind: 'loaded', inquiryId, entries })
      } catch {
        // Offline (or the code could not load offline): said as such; anything else is a failure.
        if (current) setThread({ kind: 'failed', offline: !navigator.onLine })
      }
    })()
    return () => {
      current = false
    }
  }, [inquiryId, replyTo, identities, awaitingSince, version])

  const reload = useCallback(() => setVersion((value) => value + 1), [])

  /** Seals `body` as the reply `id` (made once per draft, kept across a retry) and stores it. */
  const sendReply = useCallback(
    async (body: string, id: string): Promise<ReplyOutcome> => {
      if (!inquiry || !replyTo) return 'failed'
      let code: Awaited<ReturnType<typeof loadCode>>
      try {
        code = await loadCode()
      } catch {
        return navigator.onLine ? 'failed' : 'offline'
      }
      const [data, , { ReplySealingError, sealReply }, { buildThreadMessage }] = code
      try {
        const draft = buildThreadMessage(body, {
          id,
          inquiryId: inquiry.id,
          from: 'agency',
          now: Date.now(),
        })
        const sealed = await sealReply(draft, { replyTo, agency: inboxEnv.agencyRecipients })
        const stamped = await data.insertReply({ id, submission_id: inquiry.id, sealed })
        onInquiryChanged({ ...inquiry, ...stamped, overdue: false })
        reload()
        return 'sent'
      } catch (failure) {
        if (failure instanceof ReplySealingError) {
          console.error('inbox: sealing the reply failed', failure.problem)
          return failure.problem === 'no-agency-recipients' ? 'unsealable' : 'failed'
        }
        if (failure instanceof data.InboxDataError && failure.kind !== 'no-access') {
          return failure.kind
        }
        return 'failed'
      }
    },
    [inquiry, replyTo, onInquiryChanged, reload],
  )

  const shown: ThreadState =
    thread.kind === 'loaded' && thread.inquiryId !== inquiryId ? { kind: 'loading' } : thread
  return { thread: shown, reload, sendReply }
}
