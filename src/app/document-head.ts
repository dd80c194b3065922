import { absoluteUrl, notFoundRoute, siteRoutes } from './route-table'
import { siteEnv } from '../lib/env'

/** What the <head> says about one address: written into the prerendered HTML, kept in sync on navigation. */
export type DocumentHead = {
  title: string
  description: string
  /** Absolute canonical address; null for the 404 page, which must not be indexed. */
  canonical: string | null
}

export function headFor(pathname: string): DocumentHead {
  const route = siteRoutes.find((candidate) => candidate.path === normalizePath(pathname))
  if (!route) return { title: notFoundRoute.title, description: notFoundRoute.description, canonical: null }
  return { title: route.title, description: route.description, canonical: absoluteUrl(route.path) }
}

/** `/services/` and `/services` are the same page; `/services.html` is how some hosts name it. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\.html$/, '').replace(/\/index$/, '/').replace(/(.)\/+$/, '$1')
  return trimmed === '' ? '/' : trimmed
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The head tags as HTML, for the prerender. */
export function renderHeadTags(head: DocumentHead): string {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(siteEnv.agencyName)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta name="twitter:card" content="summary" />`,
  ]
  if (head.canonical) {
    tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`)
    tags.push(`<meta property="og:url" content="${escapeHtml(head.canonical)}" />`)
  } else {
    tags.push(`<meta name="robots" content="noindex" />`)
  }
  return tags.join('\n    ')
}
