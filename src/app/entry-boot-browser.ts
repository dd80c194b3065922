import '../styles.css'
import { afterFirstPaint } from '../shared/first-paint-browser'

/**
 * The one script tag of every page. The prerendered HTML and its CSS are the page, readable and
 * painted without JavaScript; the app's code (React, the router, the page's own module) is only
 * requested once the page has painted, so on a slow phone its bytes never compete with the HTML,
 * CSS and font for the first paint (README, "Decisions": first paint without JavaScript). Then it
 * hydrates. This file imports the stylesheet so that the build links it from the HTML's head.
 */

/**
 * The prerender lists the page's own modules in a meta tag: fetched alongside the app's entry,
 * they are ready when hydration asks for them, with no request chain.
 */
function preloadPageModules(): void {
  const listed = document.querySelector<HTMLMetaElement>('meta[name="page-modules"]')?.content ?? ''
  for (const href of listed.split(' ').filter(Boolean)) {
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.href = href
    document.head.append(link)
  }
}

void afterFirstPaint().then(() => {
  preloadPageModules()
  return import('./entry-client')
})
