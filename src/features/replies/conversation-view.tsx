import { useId, useState, type FormEvent } from 'react'
import { inputClasses } from '../../components/form-field'
import { THREAD_MESSAGE_MAX } from '../../shared/conversation/thread-message'
import { formatBytes } from '../../shared/submission/attachments'
import type { SealedAttachment } from '../../shared/submission/sealed-document'
import type { Conversation, OpenedMessage } from './open-conversation'
import type { FileDownloadOutcome } from '../../shared/files/download-file-browser'
import { conversationCopy as copy, formatWhen } from './replies-copy'
import { useFollowUp, type FollowUpDependencies } from './send-follow-up'
import { nextPlace, orderNotices, type Placed } from '../../shared/conversation/thread-order'

type FileState = 'working' | FileDownloadOutcome

/**
 * An open conversation: its status, the messages opened in this browser (oldest first), each
 * reply's files with "Download", and the form to write back. Loaded after "Open", with the crypto.
 */
export function ConversationView({
  conversation,
  dependencies,
  download,
}: {
  conversation: Conversation
  dependencies: FollowUpDependencies
  /** Fetches, opens, checks and saves one of a reply's files. */
  download: (file: SealedAttachment) => Promise<FileDownloadOutcome>
}) {
  const fieldId = useId()
  const statusId = useId()
  const [messages, setMessages] = useState<OpenedMessage[]>(conversation.messages)
  const [body, setBody] = useState('')
  const { busy, status, send } = useFollowUp(dependencies)
  const closed = conversation.status === 'closed'
  const placed = messages.flatMap((message) => (message.placed ? [message.placed] : []))
  const notices = orderNotices(placed)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const place = nextPlace(placed, 'visitor')
    const id = await send(body, place)
    if (id === null) return
    setMessages((shown) => [
      ...shown,
      {
        id,
        from: 'visitor',
        at: new Date().toISOString(),
        body: body.trim(),
        inquiry: false,
        files: [],
        unsigned: false,
        // Its hash is the sealed message's: unknown here, so nothing the page shows answers it.
        placed: { from: 'visitor', ...place, hash: id } satisfies Placed,
      },
    ])
    setBody('')
  }

  return (
    <section aria-labelledby={`${fieldId}-heading`} className="grid gap-6">
      <div>
        <h2 id={`${fieldId}-heading`} className="text-2xl font-semibold">
          {copy.heading(conversation.reference)}
        </h2>
        <p className="mt-2 text-muted">
          {conversation.status === 'closed'
            ? copy.status.closed(conversation.deleteBy && formatWhen(conversation.deleteBy))
            : copy.status[conversation.status]}
        </p>
      </div>
      {notices.length > 0 && (
        <ul role="alert" aria-label={copy.orderLabel} className="grid gap-1 text-sm text-danger">
          {notices.map((notice) => (
            <li key={`${notice.kind}-${notice.from}-${notice.seq}`}>{copy.order(notice)}</li>
          ))}
        </ul>
      )}
      <ol aria-label={copy.threadLabel} className="grid gap-4">
        {messages.map((message) => (
          <li
            key={message.id}
            className={`rounded-xl border p-4 ${message.from === 'agency' ? 'border-mint/50 bg-surface-raised' : 'border-line bg-ink'}`}
          >
            <p className="text-sm text-muted">
              <span className="font-semibold text-text">
                {message.unsigned
                  ? copy.notFrom[message.from]
                  : message.from === 'agency'
                    ? copy.agency
                    : copy.you}
              </span>
              {message.inquiry ? ` · ${copy.inquiry}` : ''} ·{' '}
              <time dateTime={message.at}>{formatWhen(message.at)}</time>
            </p>
            <p className="mt-2 break-words whitespace-pre-wrap">
              {message.body ??
                (message.unsigned ? (
                  <strong className="text-danger">{copy.unsigned[message.from]}</strong>
                ) : (
                  <em className="text-muted">{copy.unopenable}</em>
                ))}
            </p>
            {message.files.length > 0 && <MessageFiles files={message.files} download={download} />}
          </li>
        ))}
      </ol>
      {!closed && (
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-3">
          <label htmlFor={fieldId} className="text-sm font-medium text-text">
            {copy.messageLabel}
          </label>
          <textarea
            id={fieldId}
            value={body}
            onChange={(event) => setBody(event.target.value)}
            required
            rows={5}
            maxLength={THREAD_MESSAGE_MAX}
            aria-invalid={status?.error === true}
            aria-describedby={status ? statusId : undefined}
            className={`${inputClasses} min-h-[120px] resize-y`}
          />
          <button
            type="submit"
            disabled={busy}
            className="inline-flex min-h-12 w-full items-center justify-center rounded-full bg-mint px-6 py-3 font-semibold text-on-accent hover:bg-mint-strong disabled:opacity-70"
          >
            {busy ? copy.sending : copy.send}
          </button>
        </form>
      )}
      <p
        id={statusId}
        role="status"
        className={`min-h-5 text-sm ${status?.error ? 'text-danger' : 'text-muted'}`}
      >
        {status?.text ?? ''}
      </p>
    </section>
  )
}

/** A reply's files: name, type and size (as the sealed reply lists them), each with "Download". */
function MessageFiles({
  files,
  download,
}: {
  files: readonly SealedAttachment[]
  download: (file: SealedAttachment) => Promise<FileDownloadOutcome>
}) {
  const [states, setStates] = useState<Record<string, FileState>>({})
  const set = (object: string, state: FileState) =>
    setStates((current) => ({ ...current, [object]: state }))
  const fetchFile = async (file: SealedAttachment) => {
    set(file.object, 'working')
    try {
      set(file.object, await download(file))
    } catch (error) {
      console.error('A reply’s file could not be opened:', error)
      set(file.object, 'failed')
    }
  }
  return (
    <ul aria-label={copy.files.label} className="mt-3 grid gap-2">
      {files.map((file) => {
        const state = states[file.object]
        const failed = state !== undefined && state !== 'working' && state !== 'opened'
        return (
          <li
            key={file.object}
            className="grid gap-2 rounded-xl border border-line px-4 py-3 text-sm sm:grid-cols-[1fr_auto] sm:items-center"
          >
            <span className="min-w-0 break-words">
              <span className="font-medium text-text">{file.name}</span>{' '}
              <span className="text-muted">
                ({file.type || copy.files.noType}, {formatBytes(file.size)})
              </span>
            </span>
            <button
              type="button"
              disabled={state === 'working'}
              aria-label={copy.files.downloadLabel(file.name)}
              onClick={() => void fetchFile(file)}
              className="inline-flex min-h-11 items-center justify-center rounded-full border border-line px-4 py-2 text-text hover:border-mint focus-visible:outline-2 focus-visible:outline-mint disabled:opacity-70"
            >
              {copy.files.download}
            </button>
            <p
              role="status"
              className={`min-h-5 sm:col-span-2 ${failed ? 'text-danger' : 'text-muted'}`}
            >
              {state ? copy.files[state] : ''}
            </p>
          </li>
        )
      })}
    </ul>
  )
}
