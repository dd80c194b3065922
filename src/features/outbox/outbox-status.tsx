import { lazy, Suspense, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { CloudOff, Inbox } from 'lucide-react'
import { useBottomReserve } from '../../components/use-bottom-reserve'
import { useTyping } from '../../components/use-typing'
import { outboxCopy } from './outbox-copy'
import { useOutbox } from './use-outbox'

const OutboxReviewDialog = lazy(() =>
  import('./outbox-review-dialog').then((module) => ({ default: module.OutboxReviewDialog })),
)

const pillClasses =
  'inline-flex items-center gap-2 rounded-full border border-line bg-surface-raised/95 px-4 py-2 text-left text-sm text-text sm:shadow-lg sm:shadow-black/40 sm:backdrop-blur'

/**
 * The visible, announced state of the connection and the outbox: offline, messages waiting to be
 * sent, messages the backend refused. Renders nothing when all is well (and in the prerender).
 * Mounted once, in the layout; it starts the outbox's owner.
 *
 * It belongs to the bottom strip the page keeps clear (useBottomReserve; `.status-strip` in
 * styles.css), never over the page's own controls, and with nothing to say it has no size at all.
 * On phones styles.css turns the pills into one or two quiet lines, so that the bar and the status
 * take under 15 % of the screen; a toast at the bottom stands over them.
 * It steps aside with the quick-contact bar while the visitor types: the status lines stay in the
 * accessibility tree (off screen), the review button leaves the tab order.
 */
export function OutboxStatus() {
  const { online, counts } = useOutbox()
  const [reviewing, setReviewing] = useState(false)
  const typing = useTyping()
  const strip = useRef<HTMLDivElement>(null)
  useBottomReserve(strip)
  const statusLines = !online || counts.pending > 0
  const showing = statusLines || counts.needsAttention > 0

  return (
    <div
      ref={strip}
      data-aside={typing || undefined}
      className={showing ? 'group status-strip' : 'fixed'}
    >
      <div role="status" className="flex flex-col items-start gap-2">
        {!online && (
          <span className={pillClasses}>
            <CloudOff className="size-4 shrink-0 text-amber" aria-hidden="true" />
            {outboxCopy.offline}
          </span>
        )}
        {counts.pending > 0 && (
          <span className={pillClasses}>
            <Inbox className="size-4 shrink-0 text-mint" aria-hidden="true" />
            {outboxCopy.waiting(counts.pending)}
            {'SyncManager' in window ? '' : outboxCopy.nextVisit}
          </span>
        )}
      </div>
      {counts.needsAttention > 0 && (
        <button
          type="button"
          className={`${pillClasses} pointer-events-auto min-h-11 border-danger/70 font-semibold group-data-aside:invisible ${statusLines ? 'mt-2' : ''}`}
          onClick={() => setReviewing(true)}
        >
          <Inbox className="size-4 shrink-0 text-danger" aria-hidden="true" />
          {outboxCopy.notDelivered(counts.needsAttention)}
        </button>
      )}
      {/* A modal of its own, outside the strip that slides away while the visitor types. */}
      {reviewing &&
        createPortal(
          <Suspense fallback={null}>
            <OutboxReviewDialog onClose={() => setReviewing(false)} />
          </Suspense>,
          document.body,
        )}
    </div>
  )
}
