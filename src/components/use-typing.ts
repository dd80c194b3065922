import { useEffect, useState } from 'react'

/**
 * Typing in a form: a field has focus, or a virtual keyboard has shrunk the visible area. What sits
 * fixed at the bottom of the screen (the quick-contact bar, the outbox's status) steps aside then.
 */
export function useTyping(): boolean {
  const [typing, setTyping] = useState(false)
  useEffect(() => {
    const isField = (target: EventTarget | null) =>
      target instanceof HTMLElement &&
      target.matches('input, select, textarea, [contenteditable]:not([contenteditable="false"])')
    const viewport = window.visualViewport
    let fieldFocused = isField(document.activeElement)
    // A keyboard shrinks the visual viewport at normal zoom; pinch-zooming shrinks it too, but
    // with a scale above 1.
    const keyboardOpen = () =>
      viewport !== null && viewport.scale < 1.05 && viewport.height < window.innerHeight * 0.75
    const update = () => setTyping(fieldFocused || keyboardOpen())
    const onFocusIn = (event: FocusEvent) => {
      fieldFocused = isField(event.target)
      update()
    }
    const onFocusOut = (event: FocusEvent) => {
      fieldFocused = isField(event.relatedTarget)
      update()
    }
    document.addEventListener('focusin', onFocusIn)
    document.addEventListener('focusout', onFocusOut)
    viewport?.addEventListener('resize', update)
    return () => {
      document.removeEventListener('focusin', onFocusIn)
      document.removeEventListener('focusout', onFocusOut)
      viewport?.removeEventListener('resize', update)
    }
  }, [])
  return typing
}
