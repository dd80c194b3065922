/** The inbox's addresses besides the list at `/`, as the router reads them. */
export const ROUTES = { inquiry: 'inquiries/:ref', addDevice: 'devices/add/:code?' } as const

/** Where hosts and the service worker answer with the app, so a link or a reload lands on it. */
export const APP_ROUTES = [
  ...new Set(Object.values(ROUTES).map((path) => `/${path.split('/')[0]}/*`)),
]
