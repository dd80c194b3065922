import { Suspense, useEffect, useRef } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { FloatingContact } from '../components/floating-contact'
import { SiteFooter } from '../components/site-footer'
import { SiteHeader } from '../components/site-header'
import { ToastHost } from '../components/toast/toast-host'
import { OutboxStatus } from '../features/outbox/outbox-status'
import { applyDocumentHead } from './apply-document-head'
import { headFor } from './document-head'
import { RouteErrorBoundary } from './route-error-boundary'

/** The shared frame of every page (spec §2): header, content offset below it, footer, floating buttons. */
export function RootLayout() {
  const { pathname } = useLocation()
  const shownPath = useRef(pathname)

  useEffect(() => {
    // The prerendered HTML already carries the right head; this keeps it right after navigation.
    applyDocumentHead(headFor(pathname))
    if (shownPath.current === pathname) return
    shownPath.current = pathname
    // A new page starts at its top, and keyboard and screen-reader users land in it rather than
    // on <body> (the link they chose may have been in a menu that has now closed).
    window.scrollTo(0, 0)
    document.getElementById('main')?.focus({ preventScroll: true })
  }, [pathname])

  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-mint px-4 py-2 font-semibold text-on-accent focus:not-sr-only focus:fixed focus:top-[calc(0.75rem+var(--safe-top))] focus:left-[calc(0.75rem+var(--safe-left))]"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="pt-[var(--header-offset)] outline-none">
        <RouteErrorBoundary key={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <SiteFooter />
      <FloatingContact />
      <OutboxStatus />
      <ToastHost />
    </>
  )
}

/** Shown only while a not-yet-loaded page's code arrives during client navigation. */
function PageLoading() {
  return (
    <div
      role="status"
      className="mx-auto flex min-h-[60vh] max-w-6xl items-center justify-center px-5 text-muted"
    >
      Loading…
    </div>
  )
}
