import { useState } from 'react'
import { copy } from '../../content/copy'
import { formatTime } from './format'
import { SETTABLE_STATUSES, type SettableStatus } from '../../../shared/staff-workflow'
import { dueAt, purgeAfter, type Inquiry } from './inquiry'
import { ScreenHeading } from '../../components/screen-heading'
import { referenceOf } from '../../../shared/conversation/reference'

/** The contact as an action where it is one (email, Telegram, WhatsApp), else null. */
function contactLink(contact: string): string | null {
  if (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(contact)) return `mailto:${contact}`
  const telegram = /^@([A-Za-z0-9_]{5,32})$/.exec(contact)?.[1]
  if (telegram) return `https://t.me/${telegram}`
  const phone = contact.replace(/[\s().-]/g, '')
  if (/^\+\d{7,15}$/.test(phone)) return `https://wa.me/${phone.slice(1)}`
  return null
}

export function InquiryDetail({
  inquiry,
  onBack,
  onChanged,
}: {
  inquiry: Inquiry
  onBack: () => void
  onChanged: (inquiry: Inquiry) => void
}) {
  const [error, setError] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)
  const fields = 'document' in inquiry.opened ? inquiry.opened.document : null
  const labels = 'labels' in inquiry.opened ? inquiry.opened.labels : null
  const purge = purgeAfter(inquiry)

  async function change(status: SettableStatus) {
    setError(null)
    try {
      onChanged({
        ...inquiry,
        ...(await (await import('./inbox-data')).setStatus(inquiry.id, status)),
        overdue: false,
      })
    } catch (failure) {
      const offline = failure instanceof Error && failure.message === 'offline'
      setError(offline ? copy.detail.statusOffline : copy.detail.statusFailed)
    }
  }

  const link = fields ? contactLink(fields.contact) : null
  return (
    <article className="card" aria-labelledby="inquiry-heading">
      <button type="button" onClick={onBack} className="link">
        {copy.detail.back}
      </button>
      <ScreenHeading id="inquiry-heading">{fields?.name ?? referenceOf(inquiry.id)}</ScreenHeading>
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
          <dt>{copy.detail.brief}</dt>
          <dd className="brief">{fields.message}</dd>
        </dl>
      ) : (
        <p>
          {'problem' in inquiry.opened && inquiry.opened.problem === 'other-key'
            ? copy.list.otherKey(inquiry.key_id ?? '–')
            : copy.list.damaged}
        </p>
      )}
      <dl>
        <dt>{copy.detail.reference}</dt>
        <dd className="ref" data-testid="reference">
          {referenceOf(inquiry.id)}
        </dd>
        <dt>{copy.detail.received}</dt>
        <dd>{formatTime(new Date(inquiry.created_at))}</dd>
        <dt>{copy.detail.due}</dt>
        <dd>{formatTime(dueAt(inquiry))}</dd>
        <dt>{copy.detail.status}</dt>
        <dd data-testid="status">{copy.statuses[inquiry.status]}</dd>
      </dl>
      {purge && <p>{copy.detail.purged(formatTime(purge))}</p>}
      <div className="actions">
        {SETTABLE_STATUSES.map((status) => (
          <button
            key={status}
            type="button"
            onClick={() => void change(status)}
            aria-pressed={inquiry.status === status}
          >
            {copy.statuses[status]}
          </button>
        ))}
      </div>
      {error && <p role="alert">{error}</p>}
    </article>
  )
}
