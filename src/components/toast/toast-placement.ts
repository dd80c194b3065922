import { useLayoutEffect, useState } from 'react'
import type { Toast } from './toast-store'

export type ToastPlacement = 'bottom' | 'top'

/** With `toastRegionClasses`: on a phone, `data-placement="top"` moves the region under the header. */
export const toastPlacementClasses =
  'max-sm:data-[placement=top]:top-[calc(var(--header-offset)+0.5rem)] max-sm:data-[placement=top]:bottom-auto'

/**
 * How far up the screen a phone's toasts at the bottom reach, with the quick-contact bar they stand
 * on: the fixed layers keep to a quarter of the screen while a toast shows, so a bit
 * under 30 % with the gap.
 */
const BOTTOM_TOAST_REACH = 0.3

/**
 * Where a phone shows a new toast: at the bottom, in thumb reach and clear of the page's heading,
 * unless the control the visitor is using sits so low on the screen that the toast would cover it
 * (Send Securely, right after pressing it, on a small phone); then at the top, under the header.
 * Only then: a toast at the top adds to the bar and the status at the bottom.
 */
export function placementFor(active: Element | null, viewportHeight: number): ToastPlacement {
  if (!active || active === active.ownerDocument.body) return 'bottom'
  const reach = viewportHeight * (1 - BOTTOM_TOAST_REACH)
  return active.getBoundingClientRect().bottom > reach ? 'top' : 'bottom'
}

/** The placement for the newest open toast, decided when it appears and kept while it shows. */
export function useToastPlacement(toasts: readonly Toast[]): ToastPlacement {
  const [placement, setPlacement] = useState<ToastPlacement>('bottom')
  const newest = toasts.findLast((toast) => toast.open)
  useLayoutEffect(() => {
    if (newest === undefined) return
    // Phones only, by the classes (`max-sm:`): from 640 px toasts sit top right whatever this says.
    setPlacement(placementFor(newest.near ?? document.activeElement, window.innerHeight))
    // Decided once per toast: it must not jump while the visitor reads it.
  }, [newest?.id])
  return placement
}
