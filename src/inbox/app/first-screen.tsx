import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { copy } from '../content/copy'
import { inboxEnv } from '../lib/inbox-env'
import { InboxApp } from './inbox-app'

/**
 * The inbox's first screen as HTML, for the build (src/build/inbox-prerender-plugin.ts) to write
 * into index.html: the app's first render (the sign-in screen, while the session is read), so it
 * paints before any JavaScript runs, and main.tsx hydrates it. Rendered in Node with the Supabase
 * client stubbed out: nothing on this screen talks to it before an effect or a submit.
 */
export function renderFirstScreen(): { html: string; title: string } {
  return {
    html: renderToString(
      <StrictMode>
        <InboxApp />
      </StrictMode>,
    ),
    title: copy.title(inboxEnv.agencyName),
  }
}
