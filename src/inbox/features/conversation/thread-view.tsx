import { copy } from '../../content/copy'
import { CONVERSATION_FILES_BUCKET } from '../../../shared/conversation/reply-files'
import { FileList } from '../attachments/attachment-list'
import { formatTime } from '../inquiries/format'
import type { Inquiry } from '../inquiries/inquiry'
import type { ThreadEntry } from './thread'
import { useThread } from './use-thread'

/** Offline is a state to note, not an error: the brief is all there is to read then. */
export function ThreadView({
  inquiry,
  brief,
  identities,
}: {
  inquiry: Inquiry
  brief: string
  identities: readonly string[]
}) {
  const thread = useThread(inquiry, identities)
  const outcome = thread.data ?? (thread.isError ? { kind: 'failed' as const } : null)
  return (
    <>
      <ol className="thread">
        <li className="message visitor">
          <p className="meta">
            {copy.conversation.inquiry} · {formatTime(new Date(inquiry.created_at))}
          </p>
          <p className="brief">{brief}</p>
        </li>
        {outcome?.kind === 'loaded' &&
          outcome.entries.map((entry) => (
            <Entry key={entry.id} entry={entry} identities={identities} />
          ))}
      </ol>
      {thread.isLoading && <p role="status">{copy.conversation.loading}</p>}
      {outcome && outcome.kind !== 'loaded' && (
        <div className="actions">
          <p role={outcome.kind === 'offline' ? 'status' : 'alert'}>
            {outcome.kind === 'offline'
              ? copy.conversation.loadOffline
              : copy.conversation.loadFailed}
          </p>
          <button type="button" onClick={() => void thread.refetch()}>
            {copy.conversation.retry}
          </button>
        </div>
      )}
    </>
  )
}

function Entry({ entry, identities }: { entry: ThreadEntry; identities: readonly string[] }) {
  const files = 'message' in entry.opened ? entry.opened.message.attachments : []
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
