import type { Page, Response } from '@playwright/test'
import {
  headerRoutes,
  listedRoutes,
  siteRoutes,
  type RouteId,
  type SiteRoute,
} from '../../src/config/routes'
import { aboutIntro } from '../../src/content/about'
import { caseStudiesIntro } from '../../src/content/case-studies'
import { contactIntro } from '../../src/content/contact-page'
import { homeHero } from '../../src/content/home'
import { notFoundContent } from '../../src/content/not-found'
import { privacyIntro } from '../../src/content/privacy'
import { repliesIntro } from '../../src/content/replies-page'
import { servicesIntro } from '../../src/content/services'
import type { LinkTarget } from '../../src/content/types'
import { siteEnv } from '../../src/lib/env'
import { expect } from './strict-page'

/**
 * What the browser specs share: the pages to visit, their h1, where a link target should point, and
 * how to know the prerendered page has hydrated.
 */

export type PageId = RouteId | 'not-found'

/** An address no route answers: the site must serve its 404 page (status 404) here. */
export const NOT_FOUND_PATH = '/no-such-page'

/** Every page of the site: the route table's routes, then the 404 page at an unknown address. */
export const allPages: ReadonlyArray<{ id: PageId; path: string }> = [
  ...siteRoutes.map((route) => ({ id: route.id, path: route.path })),
  { id: 'not-found', path: NOT_FOUND_PATH },
]

/** The one h1 of each page. */
export const pageHeading: Record<PageId, string> = {
  home: homeHero.tagline,
  services: servicesIntro.heading,
  'case-studies': caseStudiesIntro.heading,
  about: aboutIntro.heading,
  contact: contactIntro.heading,
  privacy: privacyIntro.heading,
  replies: repliesIntro.heading,
  'not-found': notFoundContent.heading,
}

/** Widths the layout must hold at, narrowest phone to wide desktop. */
export const PHONE = { width: 375, height: 812 } as const
export const DESKTOP = { width: 1280, height: 800 } as const

/**
 * The console lines a visit to the 404 page produces on purpose: the page logs the missing path
 * (spec §2), and Chromium reports the document's own 404 status.
 */
export const NOT_FOUND_CONSOLE = [
  /404 Error: User attempted to access non-existent route/,
  /Failed to load resource: the server responded with a status of 404/,
]

/** Lets through what the 404 page logs on purpose, when `path` is the 404 page. */
export function allowNotFoundConsoleOn(
  path: string,
  allowConsoleError: (pattern: RegExp) => void,
): void {
  if (path === NOT_FOUND_PATH) NOT_FOUND_CONSOLE.forEach(allowConsoleError)
}

/** Spec: page targets stay on the site; channels go to the configured Telegram, WhatsApp or mail address. */
export function expectedHref(target: LinkTarget): string {
  switch (target.kind) {
    case 'page':
      return target.to
    case 'telegram':
      return siteEnv.telegramUrl
    case 'whatsapp':
      return siteEnv.whatsappUrl
    case 'email':
      return `mailto:${siteEnv.founderEmail}`
  }
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Waits until React has hydrated the page itself, not just the frame: the page sits inside a
 * Suspense boundary, which React 18 hydrates in a later pass than the shell, so the h1 of the page
 * is the last thing to be taken over. Hydrated DOM nodes carry React's `__reactFiber$` key.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const heading = document.querySelector('main h1')
    return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber$'))
  })
}

export async function gotoHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path)
  await waitForHydration(page)
}

/** Opens one of `allPages` hydrated at desktop width, letting through what the 404 page logs on purpose. */
export async function gotoHydratedAtDesktop(
  page: Page,
  path: string,
  allowConsoleError: (pattern: RegExp) => void,
): Promise<void> {
  allowNotFoundConsoleOn(path, allowConsoleError)
  await page.setViewportSize(DESKTOP)
  await gotoHydrated(page, path)
}

/** Loads one of `allPages` and checks its status: 404 for the 404 page, 200 for the rest. */
export async function gotoWithStatus(
  page: Page,
  path: string,
  allowConsoleError: (pattern: RegExp) => void,
): Promise<Response> {
  allowNotFoundConsoleOn(path, allowConsoleError)
  const response = await page.goto(path)
  expect(response?.status()).toBe(path === NOT_FOUND_PATH ? 404 : 200)
  return response!
}

/** The header's navigation (wide screens). */
export const mainNavigation = (page: Page) =>
  page.getByRole('banner').getByRole('navigation', { name: 'Main', exact: true })

const linkTo = (route: SiteRoute) => ({
  label: route.navLabel,
  target: { kind: 'page', to: route.path } as const,
})

/** Every listed route, as the footer links to them, in the route table's order. */
export const routeLinks = listedRoutes.map(linkTo)

/** The header's navigation items (the spec's five), in the route table's order. */
export const headerLinks = headerRoutes.map(linkTo)

/** The header's menu toggle (small screens). */
export const menuToggle = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: 'Menu' })

/**
 * Opens the small-screen menu and waits until it is open. Retries the click while the page is
 * still hydrating (a click before React is attached does nothing), never clicking an open menu.
 */
export async function openMenu(page: Page): Promise<void> {
  const toggle = menuToggle(page)
  await expect(async () => {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true', { timeout: 500 })
  }).toPass({ timeout: 10_000 })
}

export type HeadSummary = {
  title: string
  description: string[]
  canonical: string[]
  ogTitle: string[]
  ogDescription: string[]
  ogUrl: string[]
  robots: string[]
  h1: string[]
}

/**
 * The SEO-relevant head tags (and h1s) of an HTML document: of `html` when given (parsed by the
 * browser's own parser), else of the live document. Lists, so a duplicated tag shows.
 */
export async function readHead(page: Page, html?: string): Promise<HeadSummary> {
  return page.evaluate((source) => {
    const doc = source === null ? document : new DOMParser().parseFromString(source, 'text/html')
    const contents = (selector: string) =>
      [...doc.querySelectorAll(`meta[${selector}]`)].map(
        (meta) => meta.getAttribute('content') ?? '',
      )
    return {
      title: doc.title,
      description: contents('name="description"'),
      canonical: [...doc.querySelectorAll('link[rel="canonical"]')].map(
        (link) => link.getAttribute('href') ?? '',
      ),
      ogTitle: contents('property="og:title"'),
      ogDescription: contents('property="og:description"'),
      ogUrl: contents('property="og:url"'),
      robots: contents('name="robots"'),
      h1: [...doc.querySelectorAll('h1')].map((h1) => (h1.textContent ?? '').trim()),
    }
  }, html ?? null)
}

/**
 * Marks the current document, so a later `expectSameDocument` proves a navigation happened in the
 * page (client-side) and not by loading a new document.
 */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    ;(window as unknown as { __marker?: string }).__marker = 'same-document'
  })
}

/** Navigates in the page without a link: pushState, then the popstate event the router listens to. */
export async function pushPath(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to)
    window.dispatchEvent(new PopStateEvent('popstate'))
  }, path)
}

export async function expectSameDocument(page: Page): Promise<void> {
  const marker = await page.evaluate(
    () => (window as unknown as { __marker?: string }).__marker ?? null,
  )
  expect(marker, 'the navigation reloaded the document').toBe('same-document')
}

/** The page's sideways overflow, as a sentence per problem (none when it fits the window). */
export async function sidewaysOverflow(page: Page, label: string): Promise<string[]> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    innerWidth: window.innerWidth,
  }))
  return scrollWidth <= innerWidth
    ? []
    : [`${label}: page is ${scrollWidth}px wide in a ${innerWidth}px window`]
}

/** Small, common and large phone screens. */
export const PHONES = [
  { width: 320, height: 568 },
  { width: 375, height: 812 },
  { width: 412, height: 915 },
] as const
