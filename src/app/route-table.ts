import type { InternalPath } from '../content/types'
import { siteEnv } from '../lib/env'

/**
 * The one route table. It drives the router (`router.tsx`), the prerender (every entry becomes an
 * HTML file), the header and footer navigation, the sitemap and the browser test that visits every
 * route. Pure data: no React here, so build tooling and tests can import it.
 */
export type RouteId = 'home' | 'services' | 'case-studies' | 'about' | 'contact'

export type SiteRoute = {
  id: RouteId
  path: InternalPath
  /** Label in the header and footer navigation (spec §2, shared frame). */
  navLabel: string
  /** Full document title. */
  title: string
  description: string
}

const brand = siteEnv.agencyName

export const siteRoutes: readonly SiteRoute[] = [
  {
    id: 'home',
    path: '/',
    navLabel: 'Home',
    title: `${brand} | Anonymous. Scalable. Unstoppable.`,
    description: `${brand} is a discreet digital growth agency for crypto, Web3 and high-risk brands: campaigns, ghost funnels, AI automation, payments and community growth.`,
  },
  {
    id: 'services',
    path: '/services',
    navLabel: 'Services',
    title: `Services | ${brand}`,
    description:
      'Crypto campaigns, anonymous funnels, AI campaign automation, alternative payments, Telegram community growth and email/SMS sequences for high-risk brands.',
  },
  {
    id: 'case-studies',
    path: '/case-studies',
    navLabel: 'Case Studies',
    title: `Case Studies | ${brand}`,
    description:
      'Anonymised results from token launches, DeFi, iGaming and fintech campaigns: $3.4M raised, 120,000 community members, 500% ROI.',
  },
  {
    id: 'about',
    path: '/about',
    navLabel: 'About',
    title: `About | ${brand}`,
    description: `Why ${brand} works in silence: the founder's story, our values of secrecy, precision, trust and data, and the numbers behind them.`,
  },
  {
    id: 'contact',
    path: '/contact',
    navLabel: 'Contact',
    title: `Secure Contact | ${brand}`,
    description: `Reach ${brand} through a secure, encrypted contact form. We respond within 24 hours.`,
  },
]

export const notFoundRoute = {
  title: `Page not found | ${brand}`,
  description: 'This page does not exist. Return to the home page.',
} as const

export function routeById(id: RouteId): SiteRoute {
  const route = siteRoutes.find((candidate) => candidate.id === id)
  if (!route) throw new Error(`No route with id "${id}"`)
  return route
}

/** `/services/` and `/services` are the same page; `/services.html` is how some hosts name it. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\.html$/, '').replace(/\/index$/, '/').replace(/(.)\/+$/, '$1')
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
