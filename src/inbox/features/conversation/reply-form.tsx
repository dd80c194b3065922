import { useRef, useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { THREAD_MESSAGE_MAX } from '../../../shared/conversation/thread-message'
import type { ReplyOutcome } from './use-thread'

const OUTCOMES: Record<Exclude<ReplyOutcome, 'sent'>, string> = {
  offline: copy.conversation.offline,
  closed: copy.conversation.refusedClosed,
  failed: copy.conversation.failed,
  unsealable: copy.conversation.unsealable,
}

/**
 * "Reply" and "Send sealed reply". The reply's id is made once per draft and kept until it is
 * stored, so a retry after a lost answer is the same message (the database says it has it). What
 * was typed stays in the field until then, whatever went wrong.
 */
export function ReplyForm({
  onSend,
}: {
  onSend: (body: string, id: string) => Promise<ReplyOutcome>
}) {
  const [body, setBody] = useState('')
  const [sending, setSending] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [sent, setSent] = useState(false)
  const draftId = useRef<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setSent(false)
    if (body.trim() === '') {
      setProblem(copy.conversation.empty)
      return
    }
    setProblem(null)
    setSending(true)
    draftId.current ??= crypto.randomUUID()
    const outcome = await onSend(body, draftId.current).finally(() => setSending(false))
    if (outcome === 'sent') {
      draftId.current = null
      setBody('')
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
      <button type="submit" disabled={sending}>
        {sending ? copy.conversation.sending : copy.conversation.send}
      </button>
      {problem && <p role="alert">{problem}</p>}
      {sent && <p role="status">{copy.conversation.sent}</p>}
    </form>
  )
}
