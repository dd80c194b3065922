import { useQueryClient } from '@tanstack/react-query'
import { useId, useRef, useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { THREAD_MESSAGE_MAX } from '../../../shared/conversation/thread-message'
import {
  ATTACHMENT_LIMITS,
  checkAttachments,
  formatBytes,
  type AttachmentProblem,
} from '../../../shared/submission/attachments'
import type { Inquiry } from '../inquiries/inquiry'
import { agencySigningSeedOf } from '../../../shared/crypto/signing'
import { nextPlace } from '../../../shared/conversation/thread-order'
import { sendReply, type ReplyDraft, type ReplyProblem, type ReplyProgress } from './send-reply'
import { placedOf } from './thread'
import { useThread } from './use-thread'

const PROBLEMS: Record<ReplyProblem, string> = {
  offline: copy.conversation.offline,
  closed: copy.conversation.refusedClosed,
  failed: copy.conversation.failed,
  unsealable: copy.conversation.unsealable,
  'too-long': copy.conversation.tooLong,
  'file-unreadable': copy.conversation.fileUnreadable,
  'files-refused': copy.conversation.filesRefused,
  busy: copy.conversation.busy,
}

const perFile = formatBytes(ATTACHMENT_LIMITS.bytesPerFile).replace('.0 ', ' ')

function problemText(problem: AttachmentProblem): string {
  switch (problem.kind) {
    case 'too-many':
      return copy.conversation.tooMany(problem.count, ATTACHMENT_LIMITS.files)
    case 'too-large':
      return copy.conversation.tooLarge(problem.name, formatBytes(problem.size), perFile)
    case 'empty':
      return copy.conversation.emptyFile(problem.name)
  }
}

type Status =
  | { kind: 'idle' }
  | { kind: 'sending'; progress: ReplyProgress | null }
  | { kind: 'sent' }
  | { kind: 'problem'; text: string }

const newDraft = (): ReplyDraft & { tried: boolean } => ({
  id: crypto.randomUUID(),
  prepared: [],
  tried: false,
})

/**
 * The draft, the text and the files live until the reply is stored, whatever went wrong. Changing
 * the files after a try starts a new draft: a file taken off the list must not sit in the folder
 * of the reply that gets stored.
 */
export function ReplyForm({
  inquiry,
  replyTo,
  identities,
  onSent,
}: {
  inquiry: Inquiry
  replyTo: string
  identities: readonly string[]
  onSent: (inquiry: Inquiry) => void
}) {
  const client = useQueryClient()
  // The thread as shown above the form: a reply takes its place after it.
  const thread = useThread(inquiry, identities).data
  const fieldsId = useId()
  const [body, setBody] = useState('')
  const [files, setFiles] = useState<readonly File[]>([])
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const draft = useRef(newDraft())
  const picker = useRef<HTMLInputElement>(null)
  const filesProblem = checkAttachments(files)
  const sending = status.kind === 'sending'
  const hintId = `${fieldsId}-files-hint`
  const filesProblemId = `${fieldsId}-files-problem`

  function changeFiles(next: readonly File[]) {
    setFiles(next)
    setStatus((shown) => (shown.kind === 'sent' ? { kind: 'idle' } : shown))
    if (draft.current.tried) draft.current = newDraft()
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (body.trim() === '') return setStatus({ kind: 'problem', text: copy.conversation.empty })
    if (filesProblem) {
      setStatus({ kind: 'problem', text: problemText(filesProblem) })
      return picker.current?.focus()
    }
    const seed = agencySigningSeedOf(identities)
    if (!seed) return setStatus({ kind: 'problem', text: copy.conversation.unsealable })
    // Without the thread, the reply's place in it is unknown: sent, it would read as out of order.
    if (thread?.kind !== 'loaded') return setStatus({ kind: 'problem', text: PROBLEMS.failed })
    const place = nextPlace(placedOf(thread.entries), 'agency')
    setStatus({ kind: 'sending', progress: null })
    draft.current.tried = files.length > 0
    const outcome = await sendReply(
      draft.current,
      { inquiryId: inquiry.id, replyTo, body, files, place, seed },
      (progress) => setStatus({ kind: 'sending', progress }),
    )
    if (outcome.kind === 'not-sent') {
      return setStatus({ kind: 'problem', text: PROBLEMS[outcome.problem] })
    }
    draft.current = newDraft()
    setBody('')
    setFiles([])
    setStatus({ kind: 'sent' })
    onSent({ ...inquiry, ...outcome.stamped, overdue: false })
    void client.invalidateQueries({ queryKey: ['thread', inquiry.id] })
  }

  const progress = status.kind === 'sending' ? status.progress : null
  return (
    <form className="reply" onSubmit={(event) => void submit(event)} noValidate>
      <label>
        {copy.conversation.reply}
        <textarea
          name="reply"
          value={body}
          maxLength={THREAD_MESSAGE_MAX}
          rows={5}
          aria-describedby="reply-hint"
          onChange={(event) => setBody(event.target.value)}
        />
      </label>
      <p id="reply-hint" className="hint">
        {copy.conversation.replyHint}
      </p>
      <label>
        {copy.conversation.files}
        <input
          ref={picker}
          type="file"
          multiple
          disabled={sending}
          aria-describedby={`${hintId} ${filesProblemId}`}
          aria-invalid={filesProblem !== null}
          onChange={(event) => {
            const picked = Array.from(event.target.files ?? [])
            // Cleared, so the same file can be picked again after a "Remove".
            event.target.value = ''
            if (picked.length) changeFiles([...files, ...picked])
          }}
        />
      </label>
      <p id={hintId} className="hint">
        {copy.conversation.filesHint(ATTACHMENT_LIMITS.files, perFile)}
      </p>
      {files.length > 0 && (
        <ul aria-label={copy.conversation.filesListLabel} className="picked">
          {files.map((file, index) => (
            <li key={`${index}-${file.name}-${file.size}`}>
              <span className="attachment-name">{file.name}</span> ({formatBytes(file.size)}){' '}
              <button
                type="button"
                disabled={sending}
                aria-label={copy.conversation.removeLabel(file.name)}
                onClick={() => {
                  changeFiles(files.filter((_, other) => other !== index))
                  picker.current?.focus()
                }}
              >
                {copy.conversation.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p id={filesProblemId} aria-live="polite" className="hint">
        {filesProblem ? problemText(filesProblem) : ''}
      </p>
      <button type="submit" disabled={sending}>
        {sending ? copy.conversation.sending : copy.conversation.send}
      </button>
      {progress && (
        <p role="status">
          {progress.phase === 'sealing'
            ? copy.conversation.sealingFiles
            : copy.conversation.uploading(formatBytes(progress.sent), formatBytes(progress.total))}
        </p>
      )}
      {status.kind === 'problem' && <p role="alert">{status.text}</p>}
      {status.kind === 'sent' && <p role="status">{copy.conversation.sent}</p>}
    </form>
  )
}
