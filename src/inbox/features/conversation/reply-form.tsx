import { useId, useRef, useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { THREAD_MESSAGE_MAX } from '../../../shared/conversation/thread-message'
import {
  ATTACHMENT_LIMITS,
  checkAttachments,
  formatBytes,
  type AttachmentProblem,
} from '../../../shared/submission/attachments'
import type { ReplyDraft, ReplyOutcome, ReplyProgress } from './use-thread'

const OUTCOMES: Record<Exclude<ReplyOutcome, 'sent'>, string> = {
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

function progressText(progress: ReplyProgress): string {
  return progress.phase === 'sealing'
    ? copy.conversation.sealingFiles
    : copy.conversation.uploading(formatBytes(progress.sent), formatBytes(progress.total))
}

/**
 * "Reply", its files and "Send sealed reply". The reply's id is made once per draft and kept until
 * it is stored, so a retry after a lost answer is the same message (the database says it has it)
 * and reuses what was already sealed and stored. Changing the files after a try starts a new
 * draft: a file taken off the list must not sit in the folder of the reply that gets stored.
 * Files past the limits stay listed with a sentence, and Send refuses until it is fixed; what was
 * typed and picked stays until the reply is stored, whatever went wrong.
 */
export function ReplyForm({
  onSend,
}: {
  onSend: (
    draft: ReplyDraft,
    onProgress: (progress: ReplyProgress) => void,
  ) => Promise<ReplyOutcome>
}) {
  const fieldsId = useId()
  const [body, setBody] = useState('')
  const [files, setFiles] = useState<readonly File[]>([])
  const [sending, setSending] = useState(false)
  const [progress, setProgress] = useState<ReplyProgress | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [sent, setSent] = useState(false)
  const draftId = useRef<string | null>(null)
  const tried = useRef(false)
  const picker = useRef<HTMLInputElement>(null)
  const filesProblem = checkAttachments(files)
  const hintId = `${fieldsId}-files-hint`
  const filesProblemId = `${fieldsId}-files-problem`

  function changeFiles(next: readonly File[]) {
    setFiles(next)
    setSent(false)
    if (tried.current) {
      draftId.current = null
      tried.current = false
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    setSent(false)
    if (body.trim() === '') {
      setProblem(copy.conversation.empty)
      return
    }
    if (filesProblem) {
      setProblem(problemText(filesProblem))
      picker.current?.focus()
      return
    }
    setProblem(null)
    setSending(true)
    draftId.current ??= crypto.randomUUID()
    tried.current = files.length > 0
    const outcome = await onSend({ body, id: draftId.current, files }, setProgress).finally(() => {
      setSending(false)
      setProgress(null)
    })
    if (outcome === 'sent') {
      draftId.current = null
      tried.current = false
      setBody('')
      setFiles([])
      setSent(true)
    } else {
      setProblem(OUTCOMES[outcome])
    }
  }

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
      {progress && <p role="status">{progressText(progress)}</p>}
      {problem && <p role="alert">{problem}</p>}
      {sent && <p role="status">{copy.conversation.sent}</p>}
    </form>
  )
}
