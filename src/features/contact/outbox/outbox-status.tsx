import { lazy, Suspense, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { CloudOff, Inbox } from 'lucide-react'
import { useBottomReserve } from '../../../components/use-bottom-reserve'
import { useTyping } from '../../../components/use-typing'
import { outboxCopy } from './outbox-copy'
import { useOutbox } from './use-outbox'

const OutboxReviewDialog = lazy(() =>
  import('./outbox-review-dialog').then((module) => ({ default: module.OutboxReviewDialog })),
)

const pillClasses =
  'inline-flex items-center gap-2 rounded-full border border-line bg-surface-raised/95 px-4 py-2 text-left text-sm text-text sm:shadow-lg sm:shadow-black/40 sm:backdrop-blur'

/**
 * While there is something to say: on phones a row stacked on the quick-contact bar, as opaque as
 * the bar (--quick-bar is its height); from 640px a column at the bottom left, beside the round
 * buttons. With nothing to say it has no height, and no box that could cover anything.
 */
const stripClasses = {
  shown:
    'group fixed inset-x-0 bottom-[var(--quick-bar)] z-30 flex flex-col items-start border-t border-line bg-ink/90 py-2 pr-[max(1rem,var(--safe-right))] pl-[max(1rem,var(--safe-left))] backdrop-blur-md transition-[translate] duration-200 data-aside:translate-y-[calc(100%+var(--quick-bar))] sm:pointer-events-none sm:inset-x-auto sm:bottom-[calc(1.5rem+var(--safe-bottom))] sm:left-[calc(1.5rem+var(--safe-left))] sm:max-w-[calc(100vw-10rem)] sm:border-0 sm:bg-transparent sm:p-0 sm:backdrop-blur-none sm:data-aside:translate-y-[calc(100%+2rem+var(--safe-bottom))]',
  empty: 'group fixed bottom-0 left-0',
}

/**
 * The visible, announced state of the connection and the outbox: offline, messages waiting to be
 * sent, messages the backend refused. Renders nothing when all is well (and in the prerender).
 * Mounted once, in the layout; it starts the outbox's owner.
 *
 * It belongs to the bottom strip the page keeps clear (useBottomReserve), never over the page's
 * own controls, and steps aside with the quick-contact bar while the visitor types: the status
 * lines stay in the accessibility tree (off screen), the review button leaves the tab order.
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
    <div ref={strip} data-aside={typing || undefined} className={showing ? stripClasses.shown : stripClasses.empty}>
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
