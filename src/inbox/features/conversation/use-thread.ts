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
  | { kind: 'loaded'; entries: ThreadEntry[] }
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
    setThread((shown) => (shown.kind === 'loaded' ? shown : { kind: 'loading' }))
    void (async () => {
      const [{ InboxDataError, loadThreadRows }, { openThread }] = await loadCode()
      try {
        const entries = await openThread(await loadThreadRows(inquiryId), inquiryId, identities)
        if (current) setThread({ kind: 'loaded', entries })
      } catch (failure) {
        const offline = failure instanceof InboxDataError && failure.kind === 'offline'
        if (current) setThread({ kind: 'failed', offline })
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
      const [data, , { ReplySealingError, sealReply }, { buildThreadMessage }] = await loadCode()
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
          return 'unsealable'
        }
        if (failure instanceof data.InboxDataError && failure.kind !== 'no-access') {
          return failure.kind
        }
        return 'failed'
      }
    },
    [inquiry, replyTo, onInquiryChanged, reload],
  )

  return { thread, reload, sendReply }
}
