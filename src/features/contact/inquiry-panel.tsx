import { useEffect, useId, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { Link } from 'react-router-dom'
import { actionClasses } from '../../components/action-link'
import { absoluteUrl, routeById } from '../../config/routes'
import { referenceOf } from '../../shared/conversation/reference'
import { panelCopy } from './inquiry-panel-copy'
import { keepReceipt } from './kept-receipt'
import { formatQueuedAt } from '../outbox/outbox-copy'
import { outbox, useOutbox } from '../outbox/use-outbox'
import type { SentInquiry } from './submit-contact'

const repliesPath = routeById('replies').path

/**
 * What the visitor has once an inquiry leaves the form: its reference, the time, whether it is sent
 * or waits on this device (updated when the outbox delivers it), what happens next, and the
 * receipt, shown this once. Loaded when the visitor starts on the form, never with the page. The
 * receipt is in memory only: not in a request, the address, the title or a log, and in storage
 * only while "Keep it on this device" is ticked.
 *
 * It comes into view with the receipt first, its words numbered, clear of the header and of the
 * toasts and quick-contact bar at the bottom; the emptied form that follows it stays hidden until
 * "Send another message" (the `[&+form]` class below), so nothing under the receipt invites a
 * second Send.
 */
export function InquiryPanel({
  inquiry,
  queued,
  onAnother,
}: {
  inquiry: SentInquiry
  queued: boolean
  onAnother: () => void
}) {
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const section = useRef<HTMLElement>(null)
  const [formShown, setFormShown] = useState(false)
  const reference = referenceOf(inquiry.id)
  const [waiting, setWaiting] = useState(queued)
  const [kept, setKept] = useState(false)
  const [note, setNote] = useState('')

  // Waiting on this device until the outbox (this tab's or another's) no longer holds it: each
  // change of its counts, look again. The outbox removes a record once delivered; one refused
  // stays, marked for the visitor's review (the outbox's own toast and button say so), and is
  // never discarded without them. The form gives each inquiry a panel of its own (its key).
  const { counts } = useOutbox()
  useEffect(() => {
    if (!waiting) return
    let current = true
    outbox.list().then(
      (records) => {
        if (current && !records.some((record) => record.id === inquiry.id)) setWaiting(false)
      },
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [counts, waiting, inquiry.id])

  // A new inquiry: the panel is announced by its heading, where a keyboard or screen reader lands,
  // and the panel's top is brought under the header (the scroll padding), the receipt on screen.
  useEffect(() => {
    heading.current?.focus({ preventScroll: true })
    section.current?.scrollIntoView?.({ block: 'start' })
  }, [inquiry.id])

  // The form shows again before the form's own handler focuses its first field.
  const another = () => {
    flushSync(() => setFormShown(true))
    onAnother()
  }

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(inquiry.receipt)
      setNote(panelCopy.copied)
    } catch {
      setNote(panelCopy.copyFailed)
    }
  }

  // Made in the browser from memory: no request, and the object URL is dropped at once.
  const save = () => {
    const text = panelCopy.file(reference, inquiry.receipt, absoluteUrl(repliesPath))
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }))
    const link = document.createElement('a')
    link.href = url
    link.download = panelCopy.fileName(reference)
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 0)
    setNote(panelCopy.saved)
  }

  const toggleKeep = (keep: boolean) => {
    if (keepReceipt(keep ? inquiry.receipt : null)) {
      setKept(keep)
    } else {
      setNote(panelCopy.keepFailed)
    }
  }

  return (
    <section
      ref={section}
      aria-labelledby={headingId}
      className={`mb-8 grid gap-5 rounded-xl border border-mint/50 bg-ink p-4 sm:p-5 ${formShown ? '' : '[&+form]:hidden'}`}
    >
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="text-xl font-semibold focus:outline-none"
      >
        {panelCopy.heading}
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted">{panelCopy.reference}</dt>
        <dd className="font-mono text-base font-semibold text-text">{reference}</dd>
        <dt className="text-muted">{panelCopy.sentAt}</dt>
        <dd>{formatQueuedAt(new Date(inquiry.sentAt).toISOString())}</dd>
      </dl>
      <p role="status" className="text-sm">
        {waiting ? panelCopy.status.waiting : panelCopy.status.sent}
      </p>
      <div className="grid gap-3">
        <h4 id={`${headingId}-receipt`} className="font-semibold">
          {panelCopy.receiptHeading}
        </h4>
        <ol
          aria-labelledby={`${headingId}-receipt`}
          className="grid grid-flow-col grid-cols-2 grid-rows-6 gap-x-3 gap-y-1 rounded-lg border border-line bg-surface-raised p-3 font-mono text-sm sm:text-base"
          translate="no"
        >
          {inquiry.receipt.split(' ').map((word, index) => (
            <li key={index} className="flex gap-1.5 whitespace-nowrap">
              <span className="w-6 shrink-0 text-right text-muted">{index + 1}.</span>
              <span>{word}</span>
            </li>
          ))}
        </ol>
        <p className="text-sm text-muted">{panelCopy.receiptNote}</p>
        <div className="flex flex-wrap gap-3">
          <button type="button" onClick={() => void copy()} className={actionClasses('secondary')}>
            {panelCopy.copy}
          </button>
          <button type="button" onClick={save} className={actionClasses('secondary')}>
            {panelCopy.save}
          </button>
        </div>
        <p role="status" className="min-h-5 text-sm text-muted">
          {note}
        </p>
        <div className="flex items-start gap-3 text-sm">
          <input
            id={`${headingId}-keep`}
            type="checkbox"
            checked={kept}
            onChange={(event) => toggleKeep(event.target.checked)}
            aria-describedby={`${headingId}-keep-note`}
            className="mt-0.5 size-5 shrink-0 accent-mint"
          />
          <div className="grid gap-1">
            <label htmlFor={`${headingId}-keep`} className="font-medium text-text">
              {panelCopy.keep}
            </label>
            <p id={`${headingId}-keep-note`} className="text-muted">
              {panelCopy.keepNote}
            </p>
          </div>
        </div>
      </div>
      <div>
        <h4 className="font-semibold">{panelCopy.nextHeading}</h4>
        <ul className="mt-2 grid list-disc gap-1 pl-5 text-sm text-muted">
          {panelCopy.next(reference).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Link to={repliesPath} className={actionClasses('primary')}>
          {panelCopy.repliesLink}
        </Link>
        <button type="button" onClick={another} className={actionClasses('secondary')}>
          {panelCopy.another}
        </button>
      </div>
    </section>
  )
}
