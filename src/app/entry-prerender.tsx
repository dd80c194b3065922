import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router-dom'
import { headFor, renderHeadTags } from './document-head'
import { AppRoutes, pageSourceFiles, preloadPage } from './router'
import { absoluteUrl, listedRoutes, siteRoutes } from '../config/routes'

/**
 * Entry of the server build, used only at build time by `src/build/prerender-plugin.ts`: it renders
 * each route of the route table to HTML, so every page is readable with JavaScript off.
 */

export type PrerenderTarget = {
  /** Address the page answers at. */
  path: string
  /** File written in the output folder. */
  file: string
  /** Source module of the page, to preload its code. */
  pageSource: string
}

/** Every file the build writes: one per route, and `404.html` for any other address. */
export const prerenderTargets: PrerenderTarget[] = [
  ...siteRoutes.map((route) => ({
    path: route.path,
    file: route.path === '/' ? 'index.html' : `${route.path.slice(1)}.html`,
    pageSource: pageSourceFiles[route.id],
  })),
  { path: '/404', file: '404.html', pageSource: pageSourceFiles['not-found'] },
]

export async function renderPage(path: string): Promise<{ appHtml: string; headHtml: string }> {
  await preloadPage(path)
  const appHtml = renderToString(
    <StrictMode>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </StrictMode>,
  )
  return { appHtml, headHtml: renderHeadTags(headFor(path)) }
}

export function renderSitemap(): string {
  const urls = listedRoutes
    .map((route) => `  <url><loc>${absoluteUrl(route.path)}</loc></url>`)
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
}

export function renderRobots(): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl('/sitemap.xml')}\n`
}
