import { useEffect, useRef, useState } from 'react'
import { formatQueuedAt, outboxCopy } from './outbox-copy'
import type { OutboxRecord } from './outbox-types'
import { outbox } from './use-outbox'
import { useOutbox } from './use-outbox'

const buttonClasses =
  'inline-flex min-h-10 items-center rounded-full px-4 py-2 text-sm font-semibold'

/**
 * Messages the backend refused. They are stored sealed, so they cannot be shown or edited: each
 * is named by when it was queued and why it was refused, and can be resent as it is or discarded.
 * A native modal <dialog>: focus is trapped and Escape closes it.
 */
export function OutboxReviewDialog({ onClose }: { onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const { counts } = useOutbox()
  const [records, setRecords] = useState<OutboxRecord[] | null>(null)

  useEffect(() => {
    const dialog = dialogRef.current
    if (dialog && !dialog.open) dialog.showModal()
  }, [])

  // Read again whenever the counts change: a resend, a discard, or another tab.
  useEffect(() => {
    let current = true
    void outbox.list().then((all) => {
      if (current) setRecords(all.filter((record) => record.state === 'needs-attention'))
    })
    return () => {
      current = false
    }
  }, [counts])

  return (
    <dialog
      ref={dialogRef}
      onClose={onClose}
      aria-labelledby="outbox-review-title"
      className="pointer-events-auto m-auto w-[min(36rem,calc(100vw-2rem))] rounded-2xl border border-line bg-surface p-0 text-text backdrop:bg-black/70"
    >
      <div className="p-6">
        <h2 id="outbox-review-title" className="text-2xl font-semibold">
          {outboxCopy.reviewTitle}
        </h2>
        <p className="mt-2 text-sm text-muted">{outboxCopy.reviewIntro}</p>
        {records?.length === 0 && <p className="mt-6">{outboxCopy.empty}</p>}
        <ul className="mt-6 grid gap-4">
          {records?.map((record) => (
            <li key={record.id} className="rounded-xl border border-line bg-ink p-4">
              <p className="font-semibold">
                {outboxCopy.queuedAt(formatQueuedAt(record.queued_at))}
              </p>
              {record.last_error && <p className="mt-2 text-sm text-danger">{record.last_error}</p>}
              <div className="mt-4 flex flex-wrap gap-2">
                <button
                  type="button"
                  className={`${buttonClasses} bg-mint text-on-accent`}
                  onClick={() => void outbox.resend(record.id)}
                >
                  {outboxCopy.resend}
                </button>
                <button
                  type="button"
                  className={`${buttonClasses} text-danger`}
                  onClick={() => void outbox.discard(record.id)}
                >
                  {outboxCopy.discard}
                </button>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-6 flex justify-end">
          <button
            type="button"
            className={`${buttonClasses} border border-line`}
            onClick={() => dialogRef.current?.close()}
          >
            {outboxCopy.close}
          </button>
        </div>
      </div>
    </dialog>
  )
}
