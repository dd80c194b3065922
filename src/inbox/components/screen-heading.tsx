import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A screen's heading, which takes the focus that fell back to the page with the screen it replaced:
 * keyboard and screen-reader users start on the new screen. Focus still somewhere is never taken.
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
