import {
  absoluteUrl,
  isListed,
  listedRoutes,
  notFoundRoute,
  routeById,
  siteRoutes,
} from '../../src/config/routes'
import { siteEnv } from '../../src/lib/env'
import {
  DESKTOP,
  expectSameDocument,
  gotoHydrated,
  markDocument,
  NOT_FOUND_CONSOLE,
  NOT_FOUND_PATH,
  pageHeading,
  pushPath,
  readHead,
  type HeadSummary,
} from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * What search engines and link previews read: the served HTML of every route already carries its
 * head tags (no script needed), the sitemap lists the route table, and client-side navigation keeps
 * the live head in step (spec §2, Secure Contact: title, description, canonical).
 */
test.use({ viewport: DESKTOP })

const asBrowser = { headers: { Accept: 'text/html,application/xhtml+xml' } }

function expectedHead(path: string): HeadSummary {
  const route = siteRoutes.find((candidate) => candidate.path === path)
  if (!route) throw new Error(`No route at ${path}`)
  // An unlisted route (/replies) is for visitors sent there: noindex, and no canonical address, but
  // its own address for link previews.
  const canonical = isListed(route) ? [absoluteUrl(route.path)] : []
  return {
    title: route.title,
    description: [route.description],
    canonical,
    ogTitle: [route.title],
    ogDescription: [route.description],
    ogUrl: [absoluteUrl(route.path)],
    robots: isListed(route) ? [] : ['noindex'],
    h1: [pageHeading[route.id]],
  }
}

for (const route of siteRoutes) {
  test(`served HTML of ${route.path} carries its title, description, canonical, Open Graph tags and h1`, async ({
    page,
    request,
  }) => {
    const response = await request.get(route.path, asBrowser)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toContain('text/html')
    expect(await readHead(page, await response.text())).toEqual(expectedHead(route.path))
  })
}

test('served 404 page answers 404, is marked noindex and has no canonical', async ({
  page,
  request,
}) => {
  const response = await request.get(NOT_FOUND_PATH, asBrowser)
  expect(response.status()).toBe(404)
  expect(await readHead(page, await response.text())).toEqual({
    title: notFoundRoute.title,
    description: [notFoundRoute.description],
    canonical: [],
    ogTitle: [notFoundRoute.title],
    ogDescription: [notFoundRoute.description],
    ogUrl: [],
    robots: ['noindex'],
    h1: [pageHeading['not-found']],
  })
})

test('sitemap lists exactly the absolute address of every listed route', async ({ request }) => {
  const response = await request.get('/sitemap.xml')
  expect(response.status()).toBe(200)
  const xml = await response.text()
  expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
  const locations = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1])
  expect(locations).toEqual(listedRoutes.map((route) => absoluteUrl(route.path)))
  expect(locations).not.toContain(absoluteUrl(routeById('replies').path))
})

test('robots.txt allows crawling and points to the sitemap', async ({ request }) => {
  const response = await request.get('/robots.txt')
  expect(response.status()).toBe(200)
  const lines = (await response.text()).split('\n').map((line) => line.trim())
  expect(lines).toContain('User-agent: *')
  expect(lines).not.toContain('Disallow: /')
  expect(lines).toContain(`Sitemap: ${siteEnv.siteUrl}/sitemap.xml`)
})

test('contact page keeps its title, description and canonical once hydrated', async ({ page }) => {
  await gotoHydrated(page, '/contact')
  expect(await readHead(page)).toEqual(expectedHead('/contact'))
})

const clientSideNavigations = [
  {
    name: 'client-side navigation to /contact sets its title, description and canonical',
    from: '/services',
    to: 'contact',
  },
  {
    name: 'leaving /contact by client-side navigation updates the canonical and the rest of the head',
    from: '/contact',
    to: 'about',
  },
] as const

for (const { name, from, to } of clientSideNavigations) {
  test(name, async ({ page }) => {
    const route = routeById(to)
    await gotoHydrated(page, from)
    await markDocument(page)
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: route.navLabel })
      .click()
    await expect(page).toHaveURL(route.path)
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(
      pageHeading[to],
    )
    await expect(page).toHaveTitle(route.title)
    expect(await readHead(page)).toEqual(expectedHead(route.path))
    await expectSameDocument(page)
  })
}

test('client-side navigation to an unknown address marks the page noindex and drops the canonical', async ({
  page,
  allowConsoleError,
}) => {
  NOT_FOUND_CONSOLE.forEach(allowConsoleError)
  await gotoHydrated(page, '/contact')
  await markDocument(page)
  await pushPath(page, NOT_FOUND_PATH)
  await expect(page).toHaveTitle(notFoundRoute.title)
  const head = await readHead(page)
  expect(head.canonical).toEqual([])
  expect(head.ogUrl).toEqual([])
  expect(head.robots).toEqual(['noindex'])
  expect(head.description).toEqual([notFoundRoute.description])
  await expectSameDocument(page)
})
