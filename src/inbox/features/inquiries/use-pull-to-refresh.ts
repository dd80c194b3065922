import { useEffect, useState } from 'react'

export const PULL_DISTANCE_PX = 80

/** Pull down to refresh, as phone apps do; passive listeners, so scrolling is never held up. */
export function usePullToRefresh(refresh: () => void): boolean {
  const [armed, setArmed] = useState(false)
  useEffect(() => {
    let startY: number | null = null
    let pulled = false
    const start = (event: TouchEvent) => {
      startY = window.scrollY <= 0 ? (event.touches[0]?.clientY ?? null) : null
      pulled = false
    }
    const move = (event: TouchEvent) => {
      if (startY === null) return
      pulled = (event.touches[0]?.clientY ?? startY) - startY >= PULL_DISTANCE_PX
      setArmed(pulled)
    }
    const end = () => {
      if (pulled) refresh()
      startY = null
      pulled = false
      setArmed(false)
    }
    window.addEventListener('touchstart', start, { passive: true })
    window.addEventListener('touchmove', move, { passive: true })
    window.addEventListener('touchend', end, { passive: true })
    window.addEventListener('touchcancel', end, { passive: true })
    return () => {
      window.removeEventListener('touchstart', start)
      window.removeEventListener('touchmove', move)
      window.removeEventListener('touchend', end)
      window.removeEventListener('touchcancel', end)
    }
  }, [refresh])
  return armed
}
