/**
 * "Ready to work offline", as plain data: the service worker registration (app layer) says so once
 * the first install has cached the site, and the footer shows it as a quiet line, never as a
 * notice over the page.
 */

type Listener = () => void

let ready = false
const listeners = new Set<Listener>()

export function markOfflineReady(): void {
  if (ready) return
  ready = true
  listeners.forEach((listener) => listener())
}

export function isOfflineReady(): boolean {
  return ready
}

export function subscribeToOfflineReady(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
