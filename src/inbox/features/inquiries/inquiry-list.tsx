import { useEffect, useRef, useState } from 'react'
import { copy } from '../../content/copy'
import { formatAge } from './format'
import { referenceOf } from '../../../shared/conversation/reference'
import type { Inquiry } from './inquiry'
import { statusAndDue } from './triage'

/** Why an inquiry is not shown, in a sentence (its reference when nothing is wrong with it). */
export function problemSentence(inquiry: Inquiry): string {
  if (!('problem' in inquiry.opened)) return referenceOf(inquiry.id)
  switch (inquiry.opened.problem) {
    case 'other-key':
      return copy.list.otherKey(inquiry.key_id ?? '–')
    case 'wrong-id':
      return copy.list.wrongId
    case 'replaced':
      return copy.list.replaced
    case 'damaged':
      return referenceOf(inquiry.id)
  }
}

/** One line per inquiry: who, what, its reference, how old, its status and when it is due. */
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

  // "due in 23 h" counts down while the list is on screen, a minute at a time.
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000)
    return () => window.clearInterval(timer)
  }, [])
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
              {'problem' in inquiry.opened && inquiry.opened.problem === 'replaced' ? (
                <strong className="who alarm">{problemSentence(inquiry)}</strong>
              ) : (
                <span className="who">
                  {opened ? opened.document.name : problemSentence(inquiry)}
                </span>
              )}
              {opened && (
                <span className="what">
                  {[opened.labels.projectType, opened.labels.budget].filter(Boolean).join(' · ')}
                </span>
              )}
              <span className="when">
                <span className="ref">{copy.list.reference(referenceOf(inquiry.id))}</span> ·{' '}
                {formatAge(new Date(inquiry.created_at), now)}
              </span>
              <span className={inquiry.overdue ? 'due overdue' : 'due'} data-testid="due">
                {statusAndDue(inquiry, now)}
                {inquiry.awaiting_reply_since && (
                  <strong className="badge awaiting"> · {copy.list.awaiting}</strong>
                )}
              </span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}
