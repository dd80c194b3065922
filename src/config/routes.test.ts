import { describe, expect, it } from 'vitest'
import { headerRoutes, isListed, normalizePath, routeForPath, siteRoutes } from './routes'

describe('route table', () => {
  it('lists the spec routes with the header labels, in order', () => {
    expect(headerRoutes.map((route) => [route.path, route.navLabel])).toEqual([
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
      // A search result's snippet needs a useful length; an unlisted page (noindex) has none.
      if (isListed(route)) expect(route.description.length, route.path).toBeGreaterThan(50)
      expect(route.description.length, route.path).toBeLessThanOrEqual(160)
    }
  })

  it('gives the contact page a secure-contact title and a description promising a reply within 24 hours', () => {
    const contact = siteRoutes.find((route) => route.path === '/contact')
    expect(contact?.title).toMatch(/^Secure Contact/)
    expect(contact?.description).toMatch(/secure, encrypted contact form/)
    expect(contact?.description).toMatch(/within 24 hours/)
  })

  it('normalises trailing slashes and .html, and knows no other address', () => {
    expect(routeForPath('/services/')?.id).toBe('services')
    expect(routeForPath('/about.html')?.id).toBe('about')
    expect(routeForPath('/index.html')?.id).toBe('home')
    expect(routeForPath('/no-such-page')).toBeUndefined()
    expect(normalizePath('/case-studies//')).toBe('/case-studies')
  })
})
