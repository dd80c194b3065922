import { siteEnv } from '../lib/env'

/**
 * The one route table. It drives the router (`app/router.tsx`), the prerender (every entry becomes
 * an HTML file), the header and footer navigation, the sitemap and the browser test that visits
 * every route. Pure data, low in the layers: pages, components, build tooling and tests import it,
 * and the route ids and paths are derived from it rather than restated.
 */

const brand = siteEnv.agencyName

type RouteEntry = {
  id: string
  path: `/${string}`
  /** Label in the navigation (spec §2, shared frame). */
  navLabel: string
  /** Where the route is listed: the header holds the spec's five items, the footer every listed route. */
  inHeader: boolean
  /**
   * `false`: a page for visitors sent there (/replies, from the contact form): `noindex`, no
   * canonical link, in neither the sitemap nor the footer. Every other route is listed.
   */
  listed?: false
  /** Full document title. */
  title: string
  description: string
}

export const siteRoutes = [
  {
    id: 'home',
    path: '/',
    navLabel: 'Home',
    inHeader: true,
    title: `${brand} | Anonymous. Scalable. Unstoppable.`,
    description: `${brand} is a discreet digital growth agency for crypto, Web3 and high-risk brands: campaigns, ghost funnels, AI automation, payments and community growth.`,
  },
  {
    id: 'services',
    path: '/services',
    navLabel: 'Services',
    inHeader: true,
    title: `Services | ${brand}`,
    description:
      'Crypto campaigns, anonymous funnels, AI campaign automation, alternative payments, Telegram community growth and email/SMS sequences for high-risk brands.',
  },
  {
    id: 'case-studies',
    path: '/case-studies',
    navLabel: 'Case Studies',
    inHeader: true,
    title: `Case Studies | ${brand}`,
    description:
      'Anonymised results from token launches, DeFi, iGaming and fintech campaigns: $3.4M raised, 120,000 community members, 500% ROI.',
  },
  {
    id: 'about',
    path: '/about',
    navLabel: 'About',
    inHeader: true,
    title: `About | ${brand}`,
    description: `Why ${brand} works in silence: the founder's story, our values of secrecy, precision, trust and data, and the numbers behind them.`,
  },
  {
    id: 'contact',
    path: '/contact',
    navLabel: 'Contact',
    inHeader: true,
    title: `Secure Contact | ${brand}`,
    description: `Reach ${brand} through a secure, encrypted contact form. We respond within 24 hours.`,
  },
  {
    // Not one of the spec's header items: the footer links to it, as does the contact page.
    id: 'privacy',
    path: '/privacy',
    navLabel: 'Privacy',
    inHeader: false,
    title: `Privacy | ${brand}`,
    description:
      'What our Secure Contact form encrypts in your browser, what it cannot hide, how long we keep an inquiry, and how to reach us leaving less trace.',
  },
  {
    // Where a visitor with a receipt reads the sealed replies; linked from the contact page.
    id: 'replies',
    path: '/replies',
    navLabel: 'Replies',
    inHeader: false,
    listed: false,
    title: `Replies | ${brand}`,
    description: 'Read our sealed replies with your receipt.',
  },
] as const satisfies readonly RouteEntry[]

export type SiteRoute = (typeof siteRoutes)[number]
export type RouteId = SiteRoute['id']
export type RoutePath = SiteRoute['path']

/** The routes of the header navigation. */
export const headerRoutes = siteRoutes.filter((route) => route.inHeader)

/** The routes the footer and the sitemap list, and search engines may index. */
export const listedRoutes = siteRoutes.filter((route) => isListed(route))

/** Whether a route is in the sitemap and the footer, and may be indexed. */
export function isListed(route: SiteRoute): boolean {
  return !('listed' in route)
}

export const notFoundRoute = {
  title: `Page not found | ${brand}`,
  description: 'This page does not exist. Return to the home page.',
} as const

export function routeById<Id extends RouteId>(id: Id): Extract<SiteRoute, { id: Id }> {
  const route = siteRoutes.find(
    (candidate): candidate is Extract<SiteRoute, { id: Id }> => candidate.id === id,
  )
  if (!route) throw new Error(`No route with id "${id}"`)
  return route
}

/** `/services/` and `/services` are the same page; `/services.html` is how some hosts name it. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname
    .replace(/\.html$/, '')
    .replace(/\/index$/, '/')
    .replace(/(.)\/+$/, '$1')
  return trimmed === '' ? '/' : trimmed
}

/** The route an address shows, or undefined for the 404 page. */
export function routeForPath(pathname: string): SiteRoute | undefined {
  const path = normalizePath(pathname)
  return siteRoutes.find((route) => route.path === path)
}

/** Absolute public address of a path, for canonical links, Open Graph and the sitemap. */
export function absoluteUrl(path: string): string {
  return path === '/' ? `${siteEnv.siteUrl}/` : `${siteEnv.siteUrl}${path}`
}
