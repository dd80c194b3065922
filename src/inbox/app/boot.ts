import './inbox.css'
import { afterFirstPaint } from '../../shared/first-paint-browser'
import { SESSION_STORAGE_KEY } from '../lib/session-storage'

/**
 * The inbox's one script tag, as the site's (src/app/entry-boot-browser.ts): the prerendered
 * sign-in screen and its CSS are the first screen, painted without JavaScript; the app (React,
 * Supabase's client, the screens: about 110 KB gzip) is requested only once the browser has
 * painted it, then hydrates it (main.tsx). Meanwhile the form shows, and its "Sign in" stays
 * disabled (sign-in-form.tsx). This file imports the stylesheet so that the build links it from
 * the HTML's head.
 *
 * Two visits start the app at once instead: the dev server's empty template (nothing to paint),
 * and a page that finds a session stored (a reload, a trusted device's new tab, an alert's link):
 * the sign-in screen is not what that person is there for, and the next one (the unlock) needs
 * the app. Only the key's presence is read here, never the session itself.
 */

function sessionStored(): boolean {
  try {
    return (
      sessionStorage.getItem(SESSION_STORAGE_KEY) !== null ||
      localStorage.getItem(SESSION_STORAGE_KEY) !== null
    )
  } catch {
    // Storage refused (a browser setting): there is no session to find either.
    return false
  }
}

const prerendered = document.getElementById('root')?.firstElementChild != null
void (prerendered && !sessionStored() ? afterFirstPaint() : Promise.resolve()).then(
  () => import('./main'),
)
