import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { whenIdle } from '../lib/idle-browser'
import { registerServiceWorker } from './register-service-worker-browser'
import { AppRoutes, preloadPage } from './router'

/**
 * Hydrates the prerendered page, once `entry-boot-browser.ts` has seen it painted. Its page module
 * is loaded first (the boot script has already asked for it), so the first client render matches
 * the prerendered markup exactly.
 */
async function hydrate() {
  // If the page's code cannot load, hydrate anyway: the prerendered page stays as it is and the
  // router's error page explains, rather than a page that never comes alive.
  await preloadPage(window.location.pathname).catch(() => undefined)
  const container = document.getElementById('root')
  if (!container) throw new Error('The page has no #root element to hydrate')
  // As a transition, hydration is time-sliced: it yields to the browser every few milliseconds
  // instead of blocking a slow phone's main thread in one long task.
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </StrictMode>,
    )
  })
}

void hydrate()

const register = () => whenIdle(() => void registerServiceWorker())
if (document.readyState === 'complete') register()
else window.addEventListener('load', register, { once: true })
