import { useCallback, useEffect, useState } from 'react'
import { useAutoLock } from './use-auto-lock'

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
