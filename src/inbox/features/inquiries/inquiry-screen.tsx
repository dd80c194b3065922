import { useEffect, useRef, useState } from 'react'
import { Navigate, useNavigate, useParams } from 'react-router-dom'
import { copy } from '../../content/copy'
import { formatTime } from './format'
import { SETTABLE_STATUSES, type SettableStatus } from '../../../shared/staff-workflow'
import { dueAt, purgeAfter, type Inquiry } from './inquiry'
import { ScreenHeading } from '../../components/screen-heading'
import { referenceOf } from '../../../shared/conversation/reference'
import { contactChannel } from '../conversation/channel-links'
import { AnswerLinks } from '../conversation/answer-links'
import { ReplyForm } from '../conversation/reply-form'
import { ThreadView } from '../conversation/thread-view'
import { AttachmentList } from '../attachments/attachment-list'
import { inboxEnv } from '../../lib/inbox-env'
import { setStatus } from './inbox-data'
import type { ListReturn } from './list-screen'
import type { InquiryList } from './use-inquiry-list'
import { problemSentence } from './inquiry-list'

const CLOSED: readonly Inquiry['status'][] = ['completed', 'declined']

/** By its id or its reference (an alert's link carries the reference only). */
export function InquiryScreen({ list, identities }: { list: InquiryList; identities: string[] }) {
  const { ref = '' } = useParams()
  const inquiry = list.inquiries?.find((candidate) => candidate.id.startsWith(ref))
  if (inquiry) return <InquiryDetail inquiry={inquiry} list={list} identities={identities} />
  return list.opening ? null : <Navigate to="/" replace />
}

function InquiryDetail({
  inquiry,
  list,
  identities,
}: {
  inquiry: Inquiry
  list: InquiryList
  identities: string[]
}) {
  const navigate = useNavigate()
  const [error, setError] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)
  // "Completed" or "Declined" asked for and not yet confirmed: closing schedules the deletion.
  const [confirming, setConfirming] = useState<SettableStatus | null>(null)
  const confirmButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (confirming) confirmButton.current?.focus()
  }, [confirming])
  const fields = 'document' in inquiry.opened ? inquiry.opened.document : null
  const labels = 'labels' in inquiry.opened ? inquiry.opened.labels : null
  const problem = 'problem' in inquiry.opened ? inquiry.opened.problem : null
  const purge = purgeAfter(inquiry)
  const reference = referenceOf(inquiry.id)

  async function change(status: SettableStatus) {
    setError(null)
    setConfirming(null)
    const changed = await setStatus(inquiry.id, status)
    if (changed.kind === 'stored') list.replace({ ...inquiry, ...changed.stamped, overdue: false })
    else setError(changed.kind === 'offline' ? copy.detail.statusOffline : copy.detail.statusFailed)
  }

  const link = fields ? contactChannel(fields.contact)?.href : null
  return (
    <article className="card" aria-labelledby="inquiry-heading">
      <button
        type="button"
        onClick={() => navigate('/', { state: { from: inquiry.id } satisfies ListReturn })}
        className="link"
      >
        {copy.detail.back}
      </button>
      <ScreenHeading id="inquiry-heading">{fields?.name ?? reference}</ScreenHeading>
      {fields ? (
        <dl>
          <dt>{copy.detail.contact}</dt>
          <dd>
            {link ? <a href={link}>{fields.contact}</a> : fields.contact}{' '}
            <button
              type="button"
              onClick={() =>
                // Where the clipboard is refused, the contact is still there to select by hand.
                void navigator.clipboard.writeText(fields.contact).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? copy.detail.copied : copy.detail.copy}
            </button>
          </dd>
          <dt>{copy.detail.projectType}</dt>
          <dd>{labels?.projectType ?? '–'}</dd>
          <dt>{copy.detail.budget}</dt>
          <dd>{labels?.budget ?? '–'}</dd>
        </dl>
      ) : (
        <p
          role={problem === 'replaced' ? 'alert' : undefined}
          className={problem === 'replaced' ? 'alarm' : undefined}
        >
          {problem === 'damaged' ? copy.list.damaged : problemSentence(inquiry)}
        </p>
      )}
      <dl>
        <dt>{copy.detail.reference}</dt>
        <dd className="ref" data-testid="reference">
          {reference}
        </dd>
        <dt>{copy.detail.received}</dt>
        <dd>{formatTime(new Date(inquiry.created_at))}</dd>
        <dt>{copy.detail.due}</dt>
        <dd>{formatTime(dueAt(inquiry))}</dd>
        <dt>{copy.detail.status}</dt>
        <dd data-testid="status">{copy.statuses[inquiry.status]}</dd>
        {inquiry.responded_at && (
          <>
            <dt>{copy.statuses.responded}</dt>
            <dd data-testid="responded">
              {copy.detail.respondedBy(
                inquiry.responded_by,
                formatTime(new Date(inquiry.responded_at)),
              )}
            </dd>
          </>
        )}
        {inquiry.awaiting_reply_since && (
          <>
            <dt>{copy.detail.awaitingSince}</dt>
            <dd>
              <strong className="badge awaiting">
                {formatTime(new Date(inquiry.awaiting_reply_since))}
              </strong>
            </dd>
          </>
        )}
      </dl>
      {purge && <p>{copy.detail.purged(formatTime(purge))}</p>}
      <div className="actions">
        {SETTABLE_STATUSES.map((status) => (
          <button
            key={status}
            type="button"
            onClick={() =>
              CLOSED.includes(status) && !CLOSED.includes(inquiry.status)
                ? setConfirming(status)
                : void change(status)
            }
            aria-pressed={inquiry.status === status}
          >
            {copy.statuses[status]}
          </button>
        ))}
      </div>
      {confirming && (
        <div className="confirm" role="group" aria-labelledby="confirm-close">
          <p id="confirm-close">
            {copy.detail.confirmClose(
              copy.statuses[confirming],
              // As the database will stamp it: closed now, deleted by the hourly purge after.
              formatTime(purgeAfter({ ...inquiry, completed_at: new Date().toISOString() })!),
            )}
          </p>
          <div className="actions">
            <button
              type="button"
              ref={confirmButton}
              onClick={() => void change(confirming)}
              aria-describedby="confirm-close"
            >
              {copy.detail.confirm(copy.statuses[confirming])}
            </button>
            <button type="button" onClick={() => setConfirming(null)}>
              {copy.detail.cancel}
            </button>
          </div>
        </div>
      )}
      {error && <p role="alert">{error}</p>}
      {fields && fields.attachments.length > 0 && (
        <AttachmentList attachments={fields.attachments} identities={identities} />
      )}
      {fields && (
        <section className="conversation" aria-labelledby="conversation-heading">
          <h2 id="conversation-heading">{copy.conversation.heading}</h2>
          <ThreadView inquiry={inquiry} brief={fields.message} identities={identities} />
          {CLOSED.includes(inquiry.status) ? (
            <p>{copy.conversation.closed}</p>
          ) : (
            // A new form per inquiry: a draft never follows staff to another one.
            <ReplyForm
              key={inquiry.id}
              inquiry={inquiry}
              replyTo={fields.reply_to}
              identities={identities}
              onSent={list.replace}
            />
          )}
        </section>
      )}
      {fields && (
        <section className="channels" aria-labelledby="channels-heading">
          <h2 id="channels-heading">{copy.channels.heading}</h2>
          <AnswerLinks
            contact={fields.contact}
            reference={reference}
            agencyName={inboxEnv.agencyName}
          />
        </section>
      )}
    </article>
  )
}
