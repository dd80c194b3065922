import { useEffect, useRef } from 'react'
import { copy } from '../../content/copy'
import { formatAge, formatTime } from './format'
import { referenceOf } from '../../../shared/conversation/reference'
import { dueAt, type Inquiry } from './inquiry'

/** One line per inquiry: who, what, how old, and whether it is due or overdue. */
export function InquiryList({
  inquiries,
  onOpen,
  focusOn,
}: {
  inquiries: Inquiry[]
  onOpen: (inquiry: Inquiry) => void
  /** The inquiry whose row gets the focus when the list shows (the one just read). */
  focusOn: string | null
}) {
  const list = useRef<HTMLUListElement>(null)
  useEffect(() => {
    if (!focusOn) return
    list.current?.querySelector<HTMLButtonElement>(`[data-inquiry="${focusOn}"]`)?.focus()
  }, [focusOn])

  if (inquiries.length === 0) return <p>{copy.list.empty}</p>
  return (
    <ul className="inquiries" ref={list}>
      {inquiries.map((inquiry) => {
        const opened = 'document' in inquiry.opened ? inquiry.opened : null
        return (
          <li key={inquiry.id}>
            <button
              type="button"
              onClick={() => onOpen(inquiry)}
              className="inquiry"
              data-inquiry={inquiry.id}
            >
              <span className="who">
                {opened
                  ? opened.document.name
                  : 'problem' in inquiry.opened && inquiry.opened.problem === 'other-key'
                    ? copy.list.otherKey(inquiry.key_id ?? '–')
                    : referenceOf(inquiry.id)}
              </span>
              {opened && (
                <span className="what">
                  {[opened.labels.projectType, opened.labels.budget].filter(Boolean).join(' · ')}
                </span>
              )}
              <span className="when">
                <span className="ref">{copy.list.reference(referenceOf(inquiry.id))}</span> ·{' '}
                {formatAge(new Date(inquiry.created_at))} · {copy.statuses[inquiry.status]}
                {inquiry.awaiting_reply_since ? (
                  <strong className="badge awaiting"> {copy.list.awaiting}</strong>
                ) : inquiry.overdue ? (
                  <strong className="badge overdue"> {copy.list.overdue}</strong>
                ) : inquiry.status === 'new' ? (
                  <span className="badge"> {copy.list.due(formatTime(dueAt(inquiry)))}</span>
                ) : null}
              </span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}
