import { lazy, Suspense, useState } from 'react'
import { CloudOff, Inbox } from 'lucide-react'
import { outboxCopy } from './outbox-copy'
import { useOutbox } from './use-outbox'

const OutboxReviewDialog = lazy(() =>
  import('./outbox-review-dialog').then((module) => ({ default: module.OutboxReviewDialog })),
)

const pillClasses =
  'inline-flex items-center gap-2 rounded-full border border-line bg-surface-raised/95 px-4 py-2 text-sm text-text shadow-lg shadow-black/40 backdrop-blur'

/**
 * The visible, announced state of the connection and the outbox: offline, messages waiting to be
 * sent, messages the backend refused. Renders nothing when all is well (and in the prerender).
 * Mounted once, in the layout; it starts the outbox's owner.
 */
export function OutboxStatus() {
  const { online, counts } = useOutbox()
  const [reviewing, setReviewing] = useState(false)

  // Above the quick-contact bar on phones (it owns --bottom-reserve), clear of the safe areas.
  return (
    <div className="pointer-events-none fixed bottom-[calc(var(--bottom-reserve)+0.5rem)] left-[max(1rem,var(--safe-left))] z-30 flex max-w-[calc(100vw-2rem)] flex-col items-start gap-2 sm:bottom-[calc(1.5rem+var(--safe-bottom))] sm:left-[calc(1.5rem+var(--safe-left))] sm:max-w-[calc(100vw-10rem)]">
      <div role="status" className="flex flex-col items-start gap-2">
        {!online && (
          <span className={pillClasses}>
            <CloudOff className="size-4 text-amber" aria-hidden="true" />
            {outboxCopy.offline}
          </span>
        )}
        {counts.pending > 0 && (
          <span className={pillClasses}>
            <Inbox className="size-4 text-mint" aria-hidden="true" />
            {outboxCopy.waiting(counts.pending)}
          </span>
        )}
      </div>
      {counts.needsAttention > 0 && (
        <button
          type="button"
          className={`${pillClasses} pointer-events-auto border-danger/70 font-semibold`}
          onClick={() => setReviewing(true)}
        >
          <Inbox className="size-4 text-danger" aria-hidden="true" />
          {outboxCopy.notDelivered(counts.needsAttention)}
        </button>
      )}
      {reviewing && (
        <Suspense fallback={null}>
          <OutboxReviewDialog onClose={() => setReviewing(false)} />
        </Suspense>
      )}
    </div>
  )
}
