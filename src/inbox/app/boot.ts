import './inbox.css'
import { afterFirstPaint } from '../../shared/first-paint-browser'

/**
 * The inbox's one script tag, as the site's (src/app/entry-boot-browser.ts): the prerendered
 * sign-in screen and its CSS are the first screen, painted without JavaScript; the app (React,
 * Supabase's client, the screens: about 110 KB gzip) is requested only once the browser has
 * painted it, then hydrates it (main.tsx). Meanwhile the form shows, and its "Sign in" stays
 * disabled (sign-in-form.tsx). This file imports the stylesheet so that the build links it from
 * the HTML's head. The dev server serves the empty template: nothing to paint, the app at once.
 *
 * A page that finds a session (a trusted device's new tab) waits for the paint too: starting the
 * app at once there measured no faster (src/inbox/README.md, "Measured"), since the sign-in screen
 * paints either way before the app can run.
 */
const prerendered = document.getElementById('root')?.firstElementChild != null
void (prerendered ? afterFirstPaint() : Promise.resolve()).then(() => import('./main'))
