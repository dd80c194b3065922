import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { InboxApp } from './inbox-app'
import './inbox.css'

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

// The app shell offline: registered after the first screen, never in its way.
window.addEventListener('load', () => {
  void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }))
})
