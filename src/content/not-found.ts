/** Spec §2 "Not found" and "Generic fallback": exact strings. */
export const notFoundContent = {
  code: '404',
  heading: 'Oops! Page not found',
  body: 'The page you are looking for has moved, expired or never existed.',
  homeLinkLabel: 'Return to Home',
} as const

export const routeErrorContent = {
  heading: 'Unexpected Application Error!',
  body: 'Something went wrong while opening this page. Reloading usually fixes it.',
  reloadLabel: 'Reload page',
  homeLinkLabel: 'Return to Home',
} as const
