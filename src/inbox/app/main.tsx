import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { InboxApp } from './inbox-app'
import './inbox.css'

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <InboxApp />
  </StrictMode>,
)

// The app shell offline: registered after the first screen, never in its way.
window.addEventListener('load', () => {
  void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }))
})
