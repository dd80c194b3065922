/**
 * The site's boot module's wait (`src/app/entry-boot-browser.ts`): the prerendered HTML and CSS
 * are the first screen, painted without JavaScript, and the app's code is requested only once the browser has painted it, so on a slow
 * phone its bytes never compete with what that paint needs (src/README.md, "Decisions": first
 * paint without JavaScript). Browser only: it reads `document` and the paint timeline.
 */

/** How long after `load` the app waits at most for the browser's largest-paint report. */
const MAX_WAIT_FOR_PAINT_MS = 1500

/**
 * Resolves once the browser has reported the page's largest paint (or at once in a hidden tab).
 * `load` comes first: it waits for the stylesheet and the preloaded font, everything that paint
 * needs. The paint itself can land a few frames after `load` on a slow phone, so where the browser
 * reports largest-contentful-paint we wait for that report; before it, a request for the app's
 * code would still share the first bytes with the page. Elsewhere two frames after `load` stand
 * in for it (the first callback runs before the next frame is painted, the second after it).
 */
export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    // A hidden tab paints nothing and reports no largest paint: start now, or when it is hidden.
    const whenHidden = () => document.visibilityState === 'hidden' && resolve()
    document.addEventListener('visibilitychange', whenHidden)
    const onLoaded = () => {
      if (whenHidden()) return
      if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
        return
      }
      const observer = new PerformanceObserver(() => {
        observer.disconnect()
        resolve()
      })
      observer.observe({ type: 'largest-contentful-paint', buffered: true })
      // The report is a promise of the browser's, not ours to wait on for ever: a page that
      // somehow paints nothing large still hydrates.
      setTimeout(resolve, MAX_WAIT_FOR_PAINT_MS)
    }
    if (document.readyState === 'complete') onLoaded()
    else window.addEventListener('load', onLoaded, { once: true })
  })
}
