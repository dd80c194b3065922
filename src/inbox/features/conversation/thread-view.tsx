import { copy } from '../../content/copy'
import { CONVERSATION_FILES_BUCKET } from '../../../shared/conversation/reply-files'
import { FileList } from '../attachments/attachment-list'
import { formatTime } from '../inquiries/format'
import type { Inquiry } from '../inquiries/inquiry'
import { entryNotices, type ThreadEntry } from './thread'
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
  const notices = outcome?.kind === 'loaded' ? entryNotices(outcome.entries) : []
  return (
    <>
      {notices.length > 0 && (
        <ul role="alert" className="alarm" aria-label={copy.conversation.orderLabel}>
          {notices.map((notice) => (
            <li key={`${notice.kind}-${notice.from}-${notice.seq}`}>
              {copy.conversation.order(notice)}
            </li>
          ))}
        </ul>
      )}
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
  // An unsigned "reply" is credited to nobody: the author column is the database's word.
  const who =
    entry.direction === 'visitor'
      ? copy.conversation.fromVisitor
      : 'problem' in entry.opened && entry.opened.problem === 'unsigned'
        ? copy.conversation.fromNobody
        : copy.conversation.fromAgency(entry.author_email)
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
        <p className={entry.opened.problem === 'unsigned' ? 'alarm' : undefined}>
          {entry.opened.problem === 'other-key'
            ? copy.conversation.otherKey
            : entry.opened.problem === 'unsigned'
              ? entry.direction === 'agency'
                ? copy.conversation.notFromAgency
                : copy.conversation.notFromVisitor
              : copy.conversation.cannotOpen}
        </p>
      )}
    </li>
  )
}
