import { useCallback, useEffect, useState } from 'react'

/** `notice`: something short of failing went wrong (a passkey that could not be made). */
export type Unlocked = { identities: string[]; notice?: string }

/** The unlocked key, in this hook's memory only. */
export function useUnlockedKey(signedIn: boolean) {
  const [unlocked, setUnlocked] = useState<Unlocked | null>(null)
  const lock = useCallback(() => setUnlocked(null), [])
  useEffect(() => {
    if (!signedIn) lock()
  }, [signedIn, lock])
  useAutoLock(unlocked !== null, lock)
  return { unlocked: signedIn ? unlocked : null, unlock: setUnlocked, lock }
}

/** Unused for this long, the inbox locks itself. */
const IDLE_LOCK_MS = 10 * 60_000
/** In the background for this long (another app, a locked phone), it locks too. */
const HIDDEN_LOCK_MS = 5 * 60_000

/** Calls `lock` after 10 minutes without input, or 5 minutes hidden, while `active`. */
function useAutoLock(active: boolean, lock: () => void): void {
  useEffect(() => {
    if (!active) return
    let idle = setTimeout(lock, IDLE_LOCK_MS)
    let hidden: ReturnType<typeof setTimeout> | undefined
    let hiddenSince: number | null = null
    const touched = () => {
      clearTimeout(idle)
      idle = setTimeout(lock, IDLE_LOCK_MS)
    }
    // A background tab's timers may be slowed, so the time away is also checked on return.
    const visibility = () => {
      clearTimeout(hidden)
      if (document.visibilityState === 'hidden') {
        hiddenSince = Date.now()
        hidden = setTimeout(lock, HIDDEN_LOCK_MS)
      } else if (hiddenSince !== null && Date.now() - hiddenSince >= HIDDEN_LOCK_MS) lock()
      else hiddenSince = null
    }
    const events = ['pointerdown', 'keydown', 'scroll', 'touchstart'] as const
    events.forEach((name) => window.addEventListener(name, touched, { passive: true }))
    document.addEventListener('visibilitychange', visibility)
    return () => {
      clearTimeout(idle)
      clearTimeout(hidden)
      events.forEach((name) => window.removeEventListener(name, touched))
      document.removeEventListener('visibilitychange', visibility)
    }
  }, [active, lock])
}
