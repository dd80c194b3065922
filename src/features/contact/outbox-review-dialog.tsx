import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { outboxCopy } from './contact-copy'
import type { OutboxRecord } from './outbox-store'
import type { OutboxSync } from './outbox-sync-engine'
import { returnSubmission } from './returned-submissions'

const buttonClasses = 'inline-flex min-h-10 items-center rounded-full px-4 py-2 text-sm font-semibold'

/**
 * Review of submissions the backend refused while the visitor was elsewhere: edit one in the form,
 * send it again, or discard it. A native modal <dialog>: focus is trapped and Escape closes it.
 */
export function OutboxReviewDialog({
  engine,
  onClose,
}: {
  engine: () => Promise<OutboxSync>
  onClose: () => void
}) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const navigate = useNavigate()
  const [records, setRecords] = useState<OutboxRecord[] | null>(null)

  const reload = useCallback(
    () =>
      engine()
        .then((sync) => sync.list())
        .then((all) => setRecords(all.filter((record) => record.state === 'needs-attention'))),
    [engine],
  )

  useEffect(() => {
    const dialog = dialogRef.current
    if (dialog && !dialog.open) dialog.showModal()
    void reload()
  }, [reload])

  const edit = async (record: OutboxRecord) => {
    const sync = await engine()
    returnSubmission({ submission: record.submission, release: () => sync.discard(record.submission.id) })
    dialogRef.current?.close()
    navigate('/contact')
  }
  const resend = async (record: OutboxRecord) => {
    await (await engine()).resend(record.submission.id)
    await reload()
  }
  const discard = async (record: OutboxRecord) => {
    await (await engine()).discard(record.submission.id)
    await reload()
  }

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
        {records && records.length === 0 && <p className="mt-6">{outboxCopy.empty}</p>}
        <ul className="mt-6 grid gap-4">
          {records?.map((record) => (
            <li key={record.submission.id} className="rounded-xl border border-line bg-ink p-4">
              <p className="font-semibold">
                {record.submission.name} · {record.submission.contact}
              </p>
              <p className="mt-1 line-clamp-3 text-sm text-muted">{record.submission.message}</p>
              {record.lastError && <p className="mt-2 text-sm text-danger">{record.lastError}</p>}
              <div className="mt-4 flex flex-wrap gap-2">
                <button type="button" className={`${buttonClasses} bg-mint text-on-accent`} onClick={() => void edit(record)}>
                  {outboxCopy.edit}
                </button>
                <button type="button" className={`${buttonClasses} border border-line`} onClick={() => void resend(record)}>
                  {outboxCopy.resend}
                </button>
                <button type="button" className={`${buttonClasses} text-danger`} onClick={() => void discard(record)}>
                  {outboxCopy.discard}
                </button>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-6 flex justify-end">
          <button type="button" className={`${buttonClasses} border border-line`} onClick={() => dialogRef.current?.close()}>
            {outboxCopy.close}
          </button>
        </div>
      </div>
    </dialog>
  )
}
