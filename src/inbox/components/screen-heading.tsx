import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A screen's heading. When the screen replaces another (signed in, verified, unlocked, an inquiry
 * opened), the focused control went with the old screen and focus fell back to the page: it is put
 * here instead, so keyboard and screen-reader users start on the new screen, not at the top. Focus
 * that is still somewhere (a field, a button) is never taken.
 */
export function ScreenHeading({ id, children }: { id: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    const focused = document.activeElement
    if (!focused || focused === document.body) heading.current?.focus()
  }, [])
  return (
    <h1 id={id} ref={heading} tabIndex={-1}>
      {children}
    </h1>
  )
}
