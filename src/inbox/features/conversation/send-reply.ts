import { buildThreadMessage, type ThreadPlace } from '../../../shared/conversation/thread-message'
import type { SigningSeed } from '../../../shared/crypto/signing'
import { SealError } from '../../../shared/crypto/seal-error'
import { inboxEnv } from '../../lib/inbox-env'
import { accessToken } from '../auth/session'
import { insertReply, type Stamped } from '../inquiries/inbox-data'
import type { PreparedFile } from './reply-files'
import { sealReply } from './seal-reply'

export type ReplyProblem =
  | 'offline'
  | 'closed'
  | 'failed'
  | 'unsealable'
  | 'too-long'
  | 'file-unreadable'
  | 'files-refused'
  | 'busy'

export type ReplyOutcome =
  { kind: 'sent'; stamped: Stamped } | { kind: 'not-sent'; problem: ReplyProblem }

export type ReplyProgress =
  { phase: 'sealing' } | { phase: 'uploading'; sent: number; total: number }

/**
 * A reply being written: its id, kept across retries so a reply whose answer was lost is stored
 * once, and its files as sealed and stored so far, so a retry redoes nothing.
 */
export type ReplyDraft = { id: string; prepared: PreparedFile[] }

const notSent = (problem: ReplyProblem): ReplyOutcome => ({ kind: 'not-sent', problem })
const offlineOr = (problem: ReplyProblem) => notSent(navigator.onLine ? problem : 'offline')

/**
 * The row is stored last: the visitor never sees a reply whose files are missing, nor files
 * without their reply (Storage shows them only once it is stored).
 */
export async function sendReply(
  draft: ReplyDraft,
  reply: {
    inquiryId: string
    replyTo: string
    body: string
    files: readonly File[]
    /** Its place in the thread as shown (thread-order.ts), and the agency's key to sign with. */
    place: ThreadPlace
    seed: SigningSeed
  },
  onProgress: (progress: ReplyProgress) => void,
): Promise<ReplyOutcome> {
  if (!navigator.onLine) return notSent('offline')
  if (inboxEnv.agencyRecipients.length === 0) return notSent('unsealable')
  // Sealing a file as a stream, and tus-js-client, load only for a reply with files.
  const fileCode = reply.files.length > 0 ? await import('./reply-files').catch(() => null) : null
  if (reply.files.length > 0 && !fileCode) return offlineOr('failed')
  try {
    if (fileCode) {
      onProgress({ phase: 'sealing' })
      draft.prepared = await fileCode.prepareReplyFiles(
        reply.files,
        { inquiryId: reply.inquiryId, replyId: draft.id },
        [reply.replyTo, ...inboxEnv.agencyRecipients],
        draft.prepared,
      )
    }
    const message = buildThreadMessage(reply.body, {
      id: draft.id,
      inquiryId: reply.inquiryId,
      from: 'agency',
      now: Date.now(),
      attachments: draft.prepared.map((file) => file.attachment),
      place: reply.place,
    })
    const sealed = await sealReply(
      message,
      { replyTo: reply.replyTo, agency: inboxEnv.agencyRecipients },
      reply.seed,
    )
    if (fileCode) {
      const uploaded = await fileCode.uploadReplyFiles(
        draft.prepared,
        await accessToken(),
        (sent, total) => onProgress({ phase: 'uploading', sent, total }),
      )
      if (uploaded.kind !== 'delivered') {
        console.error('inbox: the reply’s files were not stored', uploaded.detail)
        if (uploaded.kind === 'refused') return notSent('files-refused')
        return uploaded.reason === 'busy' ? notSent('busy') : offlineOr('failed')
      }
    }
    const stored = await insertReply({ id: draft.id, submission_id: reply.inquiryId, sealed })
    return stored.kind === 'stored'
      ? { kind: 'sent', stamped: stored.stamped }
      : notSent(stored.kind)
  } catch (failure) {
    if (failure instanceof SealError) {
      console.error('inbox: sealing the reply or a file failed', failure.reason)
      if (failure.reason === 'no-recipients') return notSent('unsealable')
      const known = failure.reason === 'file-unreadable' || failure.reason === 'too-long'
      return notSent(known ? failure.reason : 'failed')
    }
    console.error('inbox: the reply could not be sent', failure)
    return notSent('failed')
  }
}
