import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { InboxApp } from './inbox-app'

/** The app, imported by boot.ts once the first screen has painted (its stylesheet is boot's). */
const root = document.getElementById('root') as HTMLElement
const app = (
  <StrictMode>
    <InboxApp />
  </StrictMode>
)
// The build prerenders the first screen into index.html (first-screen.tsx): hydrated, not
// redrawn. The dev server serves the empty template: rendered.
if (root.firstElementChild) hydrateRoot(root, app)
else createRoot(root).render(app)

// The app shell offline: registered after the first screen, never in its way. On the prerendered
// page the app runs after `load` (boot.ts waits for the paint); on the dev server's, before it.
const registerServiceWorker = () =>
  void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }))
if (document.readyState === 'complete') registerServiceWorker()
else window.addEventListener('load', registerServiceWorker, { once: true })
