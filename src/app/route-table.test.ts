import { describe, expect, it } from 'vitest'
import { headFor, renderHeadTags } from './document-head'
import { absoluteUrl, normalizePath, notFoundRoute, siteRoutes } from './route-table'
import { pageIdFor, pageSourceFiles } from './router'
import { prerenderTargets, renderRobots, renderSitemap } from './entry-prerender'
import { siteEnv } from '../lib/env'

describe('route table', () => {
  it('lists the spec routes with the header labels, in order', () => {
    expect(siteRoutes.map((route) => [route.path, route.navLabel])).toEqual([
      ['/', 'Home'],
      ['/services', 'Services'],
      ['/case-studies', 'Case Studies'],
      ['/about', 'About'],
      ['/contact', 'Contact'],
    ])
  })

  it('gives every route a distinct title and a description of a useful length', () => {
    expect(new Set(siteRoutes.map((route) => route.title)).size).toBe(siteRoutes.length)
    for (const route of siteRoutes) {
      expect(route.description.length, route.path).toBeGreaterThan(50)
      expect(route.description.length, route.path).toBeLessThanOrEqual(160)
    }
  })

  it('gives the contact page a secure-contact title and a description promising a reply within 24 hours', () => {
    const contact = siteRoutes.find((route) => route.path === '/contact')
    expect(contact?.title).toMatch(/^Secure Contact/)
    expect(contact?.description).toMatch(/secure, encrypted contact form/)
    expect(contact?.description).toMatch(/within 24 hours/)
  })

  it('maps addresses to pages, trailing slashes and .html included, anything else to not-found', () => {
    expect(pageIdFor('/')).toBe('home')
    expect(pageIdFor('/services/')).toBe('services')
    expect(pageIdFor('/about.html')).toBe('about')
    expect(pageIdFor('/index.html')).toBe('home')
    expect(pageIdFor('/no-such-page')).toBe('not-found')
    expect(normalizePath('/case-studies//')).toBe('/case-studies')
  })

  it('prerenders one file per route plus 404.html, each with its page module', () => {
    expect(prerenderTargets.map((target) => target.file)).toEqual([
      'index.html',
      'services.html',
      'case-studies.html',
      'about.html',
      'contact.html',
      '404.html',
    ])
    expect(prerenderTargets.every((target) => Object.values(pageSourceFiles).includes(target.pageSource))).toBe(true)
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

  it('escapes text in head tags', () => {
    const html = renderHeadTags({ title: 'A & B <C>', description: '"quoted"', canonical: null })
    expect(html).toContain('<title>A &amp; B &lt;C&gt;</title>')
    expect(html).toContain('content="&quot;quoted&quot;"')
  })

  it('builds a sitemap of every route and a robots.txt pointing to it', () => {
    const sitemap = renderSitemap()
    for (const route of siteRoutes) expect(sitemap).toContain(`<loc>${absoluteUrl(route.path)}</loc>`)
    expect(sitemap.match(/<url>/g)).toHaveLength(siteRoutes.length)
    expect(renderRobots()).toContain(`Sitemap: ${siteEnv.siteUrl}/sitemap.xml`)
  })
})
