import { siteEnv } from '../lib/env'
import { absoluteUrl, isListed, notFoundRoute, routeForPath } from '../config/routes'

/** What the <head> says about one address: written into the prerendered HTML, kept in sync on navigation. */
export type DocumentHead = {
  title: string
  description: string
  /** Absolute canonical address; null for the 404 page and unlisted routes, which must not be indexed. */
  canonical: string | null
  /** Absolute address for link previews (`og:url`): every route, unlisted ones too; null for the 404. */
  url: string | null
}

export function headFor(pathname: string): DocumentHead {
  const route = routeForPath(pathname)
  if (!route)
    return {
      title: notFoundRoute.title,
      description: notFoundRoute.description,
      canonical: null,
      url: null,
    }
  return {
    title: route.title,
    description: route.description,
    canonical: isListed(route) ? absoluteUrl(route.path) : null,
    url: absoluteUrl(route.path),
  }
}

export type MetaTag = { attribute: 'name' | 'property'; key: string; content: string | null }

/**
 * The meta tags that change from page to page (content null: the page has none). The prerender
 * writes them and the browser rewrites them after navigation, from this one list.
 */
export function pageMetaTags(head: DocumentHead): MetaTag[] {
  return [
    { attribute: 'name', key: 'description', content: head.description },
    { attribute: 'property', key: 'og:title', content: head.title },
    { attribute: 'property', key: 'og:description', content: head.description },
    { attribute: 'property', key: 'og:url', content: head.url },
    { attribute: 'name', key: 'robots', content: head.canonical ? null : 'noindex' },
  ]
}

/** What the shared picture shows, for those who cannot see it. */
const ogImageAlt = `The ${siteEnv.agencyName} mark and its line: Anonymous. Scalable. Unstoppable.`

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The head tags as HTML, for the prerender. */
export function renderHeadTags(head: DocumentHead): string {
  const metaTag = ({ attribute, key, content }: MetaTag) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content ?? '')}" />`
  const sameOnEveryPage: MetaTag[] = [
    { attribute: 'property', key: 'og:type', content: 'website' },
    { attribute: 'property', key: 'og:site_name', content: siteEnv.agencyName },
    // One self-hosted picture for every shared link (1200 x 630, not precached: only previews fetch it).
    { attribute: 'property', key: 'og:image', content: absoluteUrl('/og-image.jpg') },
    { attribute: 'property', key: 'og:image:width', content: '1200' },
    { attribute: 'property', key: 'og:image:height', content: '630' },
    { attribute: 'property', key: 'og:image:alt', content: ogImageAlt },
    { attribute: 'name', key: 'twitter:card', content: 'summary_large_image' },
  ]
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    ...[...sameOnEveryPage, ...pageMetaTags(head)]
      .filter((tag) => tag.content !== null)
      .map(metaTag),
    ...(head.canonical ? [`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`] : []),
  ].join('\n    ')
}
