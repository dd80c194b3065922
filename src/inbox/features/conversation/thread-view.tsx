import { copy } from '../../content/copy'
import { CONVERSATION_FILES_BUCKET } from '../../../shared/conversation/reply-files'
import { FileList } from '../attachments/attachment-list'
import { formatTime } from '../inquiries/format'
import type { ThreadEntry } from './thread'
import type { ThreadState } from './use-thread'

/**
 * The conversation, oldest first: the inquiry's brief, then every message after it, opened on
 * this device (or said why not), each with its files and "Download". A thread that could not be
 * loaded says so, with "Try again".
 */
export function ThreadView({
  brief,
  receivedAt,
  thread,
  identities,
  onRetry,
}: {
  brief: string
  receivedAt: string
  thread: ThreadState
  /** The unlocked identities, to open the messages' sealed files. */
  identities: readonly string[]
  onRetry: () => void
}) {
  return (
    <>
      <ol className="thread">
        <li className="message visitor">
          <p className="meta">
            {copy.conversation.inquiry} · {formatTime(new Date(receivedAt))}
          </p>
          <p className="brief">{brief}</p>
        </li>
        {thread.kind === 'loaded' &&
          thread.entries.map((entry) => (
            <Entry key={entry.id} entry={entry} identities={identities} />
          ))}
      </ol>
      {thread.kind === 'loading' && <p role="status">{copy.conversation.loading}</p>}
      {thread.kind === 'failed' && (
        <div className="actions">
          {/* Offline is a state to note, not an error: the brief above is all there is to read. */}
          <p role={thread.offline ? 'status' : 'alert'}>
            {thread.offline ? copy.conversation.loadOffline : copy.conversation.loadFailed}
          </p>
          <button type="button" onClick={onRetry}>
            {copy.conversation.retry}
          </button>
        </div>
      )}
    </>
  )
}

function Entry({ entry, identities }: { entry: ThreadEntry; identities: readonly string[] }) {
  // Version 1 messages have no files (the contract's filesOf, without loading its schema here).
  const files = 'message' in entry.opened ? (entry.opened.message.attachments ?? []) : []
  const who =
    entry.direction === 'agency'
      ? copy.conversation.fromAgency(entry.author_email)
      : copy.conversation.fromVisitor
  return (
    <li className={`message ${entry.direction}`}>
      <p className="meta">
        {who} · {formatTime(new Date(entry.created_at))}
      </p>
      {'message' in entry.opened ? (
        <>
          <p className="brief">{entry.opened.message.body}</p>
          {files.length > 0 && (
            <FileList
              attachments={files}
              identities={identities}
              bucket={CONVERSATION_FILES_BUCKET}
              label={copy.conversation.messageFiles}
            />
          )}
        </>
      ) : (
        <p>
          {entry.opened.problem === 'other-key'
            ? copy.conversation.otherKey
            : copy.conversation.cannotOpen}
        </p>
      )}
    </li>
  )
}
