import * as RadixToast from '@radix-ui/react-toast'
import { useSyncExternalStore } from 'react'
import {
  DEFAULT_TOAST_DURATION,
  dismissToast,
  getToasts,
  removeToast,
  subscribeToToasts,
  type ToastVariant,
} from './toast-store'
import { toastPlacementClasses, useToastPlacement } from './toast-placement'
import { toastRegionClasses } from './toast-region'

const variantClasses: Record<ToastVariant, string> = {
  default: 'border-line',
  success: 'border-mint/60',
  destructive: 'border-danger/70 bg-[#1f0f12]',
}

/**
 * Radix toasts: announced to screen readers (foreground for errors), closable with Escape or F8 to
 * focus the region, and paused while hovered or focused so nobody loses a message mid-read.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToToasts, getToasts, getToasts)
  const placement = useToastPlacement(toasts)
  return (
    <RadixToast.Provider
      duration={DEFAULT_TOAST_DURATION}
      swipeDirection="right"
      label="Notification"
    >
      {toasts.map((toast) => {
        const variant = toast.variant ?? 'default'
        return (
          <RadixToast.Root
            key={toast.id}
            open={toast.open}
            duration={toast.duration}
            type={variant === 'destructive' ? 'foreground' : 'background'}
            onOpenChange={(open) => (open ? undefined : dismissToast(toast.id))}
            onAnimationEnd={() => (toast.open ? undefined : removeToast(toast.id))}
            data-variant={variant}
            className={`surface-card relative flex w-full items-start gap-4 border bg-surface-raised p-3 pr-9 text-sm sm:p-4 sm:pr-10 shadow-2xl sm:text-base shadow-black/50 ${variantClasses[variant]} data-[state=closed]:animate-[toast-out_150ms_ease-in_forwards] data-[state=open]:animate-[toast-in_200ms_ease-out]`}
          >
            <div className="grid gap-1">
              <RadixToast.Title className="font-semibold text-text">{toast.title}</RadixToast.Title>
              {toast.description && (
                <RadixToast.Description className="text-xs text-muted sm:text-sm">
                  {toast.description}
                </RadixToast.Description>
              )}
            </div>
            {toast.action && (
              <RadixToast.Action
                altText={toast.action.altText}
                onClick={toast.action.onSelect}
                className="ml-auto shrink-0 self-center rounded-full bg-mint px-3 py-1.5 text-sm font-semibold text-on-accent"
              >
                {toast.action.label}
              </RadixToast.Action>
            )}
            <RadixToast.Close
              aria-label="Close notification"
              className="absolute top-2 right-2 flex size-8 items-center justify-center rounded-full text-muted hover:text-text"
            >
              <span aria-hidden="true">×</span>
            </RadixToast.Close>
          </RadixToast.Root>
        )
      })}
      <RadixToast.Viewport
        className={`${toastRegionClasses} ${toastPlacementClasses}`}
        data-placement={placement}
      />
    </RadixToast.Provider>
  )
}
