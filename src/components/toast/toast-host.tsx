import { Component, lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react'
import { PlainToaster } from './plain-toaster'
import { isToasterNeeded, subscribeToToasts } from './toast-store'

const loadToaster = () => import('./toaster')
const Toaster = lazy(() => loadToaster().then((module) => ({ default: module.Toaster })))

/** Fetches the Radix toaster ahead of need, where a toast is likely (the contact page). */
export function preloadToaster(): void {
  void loadToaster().catch(() => {
    // Offline before the service worker cached it: the plain toaster will stand in.
  })
}

const notOnServer = () => false

/**
 * Mounts the Radix toaster the first time a toast is shown; renders nothing before (and in the
 * prerender). If its code cannot load, the plain toaster takes over: a toast must never take the
 * page (and a half-typed brief) down with it.
 */
export function ToastHost() {
  const needed = useSyncExternalStore(subscribeToToasts, isToasterNeeded, notOnServer)
  if (!needed) return null
  return (
    <ToasterFallback>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </ToasterFallback>
  )
}

class ToasterFallback extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  render() {
    return this.state.failed ? <PlainToaster /> : this.props.children
  }
}
