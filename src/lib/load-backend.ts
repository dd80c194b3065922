/** The backend's calls and client, loaded when something is first sent, never with a page. */
export const loadBackend = () => import('./backend')

/** The backend's code could not load (offline before the service worker had it): no answer. */
export const notLoaded = (error: unknown) =>
  ({ kind: 'no-answer', reason: 'noAnswer', detail: String(error) }) as const
