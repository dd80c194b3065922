import { useCallback, useEffect, useRef, useState } from 'react'
import { inboxEnv } from '../../lib/inbox-env'
import { SealError } from '../../../shared/crypto/seal-error'
import type { Inquiry } from '../inquiries/inquiry'
import type { PreparedFile } from './reply-files'
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

export type ReplyOutcome =
  | 'sent'
  | 'offline'
  | 'closed'
  | 'failed'
  | 'unsealable'
  /** The reply and its files' names do not fit the database's bound once sealed. */
  | 'too-long'
  /** A picked file could not be read to its end (moved, deleted, changed). */
  | 'file-unreadable'
  /** Storage refused the files (the policy: a thread closed meanwhile, or no staff session). */
  | 'files-refused'
  /** Storage answered 429. */
  | 'busy'

/** How far a reply with files has got, for the line under its button. */
export type ReplyProgress =
  { phase: 'sealing' } | { phase: 'uploading'; sent: number; total: number }

/** What "Send sealed reply" hands over: the text, the draft's id (kept across retries), files. */
export type ReplyDraft = { body: string; id: string; files: readonly File[] }

// The reply's code (age, the thread's opening, the database calls) loads with the key's, after
// sign-in: never on the first screen.
const loadCode = () =>
  Promise.all([
    import('../inquiries/inbox-data'),
    import('./thread'),
    import('./seal-reply'),
    import('../../../shared/conversation/thread-message'),
  ])
// Loaded only when a reply carries files: age's stream sealing and tus-js-client.
const loadFileCode = () => import('./reply-files')

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

  // The current draft's files, sealed and marked stored as they land, kept across a retry of the
  // same draft so nothing is sealed or uploaded twice; dropped once the reply is stored.
  const prepared = useRef<{ replyId: string; files: PreparedFile[] } | null>(null)

  /**
   * Seals the draft's files, then its text (listing them) as the reply `id`, uploads the files
   * the database has not stored yet, and stores the reply last, so the visitor never sees a reply
   * whose files are missing, nor files without their reply (Storage shows them only once it is
   * stored). Whatever fails, the form keeps the text and the files.
   */
  const sendReply = useCallback(
    async (
      { body, id, files }: ReplyDraft,
      onProgress?: (progress: ReplyProgress) => void,
    ): Promise<ReplyOutcome> => {
      if (!inquiry || !replyTo) return 'failed'
      if (!navigator.onLine) return 'offline'
      let code: Awaited<ReturnType<typeof loadCode>>
      let fileCode: Awaited<ReturnType<typeof loadFileCode>> | null = null
      try {
        code = await loadCode()
        if (files.length > 0) fileCode = await loadFileCode()
      } catch {
        return navigator.onLine ? 'failed' : 'offline'
      }
      const [data, , { sealReply }, { buildThreadMessage }] = code
      if (inboxEnv.agencyRecipients.length === 0) return 'unsealable'
      try {
        let attached: PreparedFile[] = []
        if (fileCode) {
          onProgress?.({ phase: 'sealing' })
          const earlier = prepared.current?.replyId === id ? prepared.current.files : []
          attached = await fileCode.prepareReplyFiles(
            files,
            { inquiryId: inquiry.id, replyId: id },
            [replyTo, ...inboxEnv.agencyRecipients],
            earlier,
          )
          prepared.current = { replyId: id, files: attached }
        }
        const draft = buildThreadMessage(body, {
          id,
          inquiryId: inquiry.id,
          from: 'agency',
          now: Date.now(),
          attachments: attached.map((file) => file.attachment),
        })
        const sealed = await sealReply(draft, { replyTo, agency: inboxEnv.agencyRecipients })
        if (fileCode) {
          const uploaded = await fileCode.uploadReplyFiles(attached, (sent, total) =>
            onProgress?.({ phase: 'uploading', sent, total }),
          )
          if (uploaded.kind !== 'delivered') {
            console.error('inbox: the reply’s files were not stored', uploaded.detail)
            if (uploaded.kind === 'refused') return 'files-refused'
            if (uploaded.reason === 'busy') return 'busy'
            return navigator.onLine ? 'failed' : 'offline'
          }
        }
        const stamped = await data.insertReply({ id, submission_id: inquiry.id, sealed })
        prepared.current = null
        onInquiryChanged({ ...inquiry, ...stamped, overdue: false })
        reload()
        return 'sent'
      } catch (failure) {
        if (failure instanceof SealError) {
          console.error('inbox: sealing the reply or a file failed', failure.reason)
          if (failure.reason === 'no-recipients') return 'unsealable'
          if (failure.reason === 'file-unreadable') return 'file-unreadable'
          return failure.reason === 'too-long' ? 'too-long' : 'failed'
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
