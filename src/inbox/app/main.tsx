import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { registerSW } from 'virtual:pwa-register'
import { copy } from '../content/copy'
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

// The app shell offline, registered once the page has loaded: never in the first screen's way.
if (document.readyState === 'complete') registerSW({ immediate: true })
else window.addEventListener('load', () => registerSW({ immediate: true }), { once: true })
