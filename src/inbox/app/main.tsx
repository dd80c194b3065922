import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { registerSW } from 'virtual:pwa-register'
import { copy } from '../content/copy'
import { offerUpdate } from '../features/update/update-offer'
import { inboxEnv } from '../lib/inbox-env'
import './inbox.css'
import { InboxApp } from './inbox-app'

document.title = copy.title(inboxEnv.agencyName)

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <BrowserRouter>
      <InboxApp />
    </BrowserRouter>
  </StrictMode>,
)

/**
 * The app shell offline, registered once the page has loaded: never in the first screen's way. A
 * new version waits (src/THREAT-MODEL.md, "Inbox updates"): "Update" activates it and reloads.
 */
function register() {
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => offerUpdate(() => update(true)),
  })
}
if (document.readyState === 'complete') register()
else window.addEventListener('load', register, { once: true })
