import { describe, expect, it } from 'vitest'
import { absoluteUrl, listedRoutes, notFoundRoute, routeById, siteRoutes } from '../config/routes'
import { siteEnv } from '../lib/env'
import { headFor, renderHeadTags } from './document-head'
import { prerenderTargets, renderRobots, renderSitemap } from './entry-prerender'
import { pageIdFor, pageSourceFiles } from './router'

describe('router and prerender', () => {
  it('maps addresses to pages, trailing slashes and .html included, anything else to not-found', () => {
    expect(pageIdFor('/')).toBe('home')
    expect(pageIdFor('/services/')).toBe('services')
    expect(pageIdFor('/about.html')).toBe('about')
    expect(pageIdFor('/index.html')).toBe('home')
    expect(pageIdFor('/no-such-page')).toBe('not-found')
  })

  it('prerenders one file per route plus 404.html, each with its page module', () => {
    expect(prerenderTargets.map((target) => target.file)).toEqual([
      'index.html',
      'services.html',
      'case-studies.html',
      'about.html',
      'contact.html',
      'privacy.html',
      'replies.html',
      '404.html',
    ])
    expect(
      prerenderTargets.every((target) =>
        Object.values(pageSourceFiles).includes(target.pageSource),
      ),
    ).toBe(true)
  })

  it('writes head tags with the canonical address, and noindex without canonical for the 404', () => {
    const contactHead = renderHeadTags(headFor('/contact'))
    expect(contactHead).toContain(`<link rel="canonical" href="${siteEnv.siteUrl}/contact" />`)
    expect(contactHead).toContain('<title>Secure Contact')
    const missing = headFor('/missing')
    expect(missing.title).toBe(notFoundRoute.title)
    expect(renderHeadTags(missing)).toContain('noindex')
    expect(renderHeadTags(missing)).not.toContain('canonical')
  })

  it('marks /replies noindex, with no canonical address but its own og:url', () => {
    const head = renderHeadTags(headFor('/replies'))
    expect(head).toContain('<meta name="robots" content="noindex" />')
    expect(head).not.toContain('canonical')
    expect(head).toContain(`<meta property="og:url" content="${siteEnv.siteUrl}/replies" />`)
  })

  it('gives every page the one self-hosted picture for link previews', () => {
    for (const path of [...siteRoutes.map((route) => route.path), '/missing']) {
      const head = renderHeadTags(headFor(path))
      expect(head).toContain(
        `<meta property="og:image" content="${siteEnv.siteUrl}/og-image.jpg" />`,
      )
      expect(head).toContain('<meta name="twitter:card" content="summary_large_image" />')
    }
  })

  it('escapes text in head tags', () => {
    const html = renderHeadTags({
      title: 'A & B <C>',
      description: '"quoted"',
      canonical: null,
      url: null,
    })
    expect(html).toContain('<title>A &amp; B &lt;C&gt;</title>')
    expect(html).toContain('content="&quot;quoted&quot;"')
  })

  it('builds a sitemap of every listed route (not /replies) and a robots.txt pointing to it', () => {
    const sitemap = renderSitemap()
    for (const route of listedRoutes)
      expect(sitemap).toContain(`<loc>${absoluteUrl(route.path)}</loc>`)
    expect(sitemap.match(/<url>/g)).toHaveLength(listedRoutes.length)
    expect(sitemap).not.toContain(absoluteUrl(routeById('replies').path))
    expect(renderRobots()).toContain(`Sitemap: ${siteEnv.siteUrl}/sitemap.xml`)
  })
})
