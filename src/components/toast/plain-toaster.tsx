import { useEffect, useSyncExternalStore } from 'react'
import {
  DEFAULT_TOAST_DURATION,
  getToasts,
  removeToast,
  subscribeToToasts,
  type Toast,
} from './toast-store'
import { toastRegionClasses } from './toast-region'

/**
 * The toaster without Radix, for when its code cannot load (offline on a first visit, before the
 * service worker has cached it). Plainer, but every message still shows, is announced, and closes.
 */
export function PlainToaster() {
  const toasts = useSyncExternalStore(subscribeToToasts, getToasts, getToasts)
  // Replaced toasts are only closed by the store (Radix animates them out first): nothing to animate here.
  useEffect(() => {
    toasts.filter((toast) => !toast.open).forEach((toast) => removeToast(toast.id))
  }, [toasts])
  return (
    <section aria-label="Notifications">
      <ol className={toastRegionClasses}>
        {toasts
          .filter((toast) => toast.open)
          .map((toast) => (
            <PlainToast key={toast.id} toast={toast} />
          ))}
      </ol>
    </section>
  )
}

function PlainToast({ toast }: { toast: Toast }) {
  const duration = toast.duration ?? DEFAULT_TOAST_DURATION
  useEffect(() => {
    if (!Number.isFinite(duration)) return
    // No closing animation here, so the toast goes at once (Radix's toaster dismisses, then removes).
    const timer = setTimeout(() => removeToast(toast.id), duration)
    return () => clearTimeout(timer)
  }, [toast.id, duration])

  const destructive = toast.variant === 'destructive'
  return (
    <li
      role={destructive ? 'alert' : 'status'}
      className={`surface-card flex items-start gap-4 border bg-surface-raised p-4 shadow-2xl shadow-black/50 ${
        destructive ? 'border-danger/70' : 'border-line'
      }`}
    >
      <div className="grid gap-1">
        <p className="font-semibold text-text">{toast.title}</p>
        {toast.description && <p className="text-sm text-muted">{toast.description}</p>}
      </div>
      {toast.action && (
        <button
          type="button"
          onClick={toast.action.onSelect}
          className="ml-auto shrink-0 rounded-full bg-mint px-3 py-1.5 text-sm font-semibold text-on-accent"
        >
          {toast.action.label}
        </button>
      )}
      <button
        type="button"
        aria-label="Close notification"
        onClick={() => removeToast(toast.id)}
        className="shrink-0 rounded-full px-2 text-muted hover:text-text"
      >
        <span aria-hidden="true">×</span>
      </button>
    </li>
  )
}
