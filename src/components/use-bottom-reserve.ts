import { useEffect, type RefObject } from 'react'

/**
 * Grows the strip the page keeps clear at the bottom of the screen (--bottom-reserve, styles.css:
 * the footer's padding and the scroll padding) by the height of `ref`'s element, a fixed layer
 * stacked on the quick-contact buttons, so that no control can be scrolled or focused under it.
 * The root gets --status-reserve only while the element has a height: first paint, and every page
 * with nothing to show, keep the stylesheet's reserve, so nothing shifts.
 */
export function useBottomReserve(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const root = document.documentElement.style
    // Observers report after layout and before paint: the reserve grows in the frame the layer does.
    const observer = new ResizeObserver(() => {
      const height = Math.ceil(element.getBoundingClientRect().height)
      if (height > 0) root.setProperty('--status-reserve', `${height}px`)
      else root.removeProperty('--status-reserve')
    })
    observer.observe(element)
    return () => {
      observer.disconnect()
      root.removeProperty('--status-reserve')
    }
  }, [ref])
}
