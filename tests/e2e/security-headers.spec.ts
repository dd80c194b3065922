import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { contentSecurityPolicy, headersFor } from '../../src/build/security-headers'
import { contactForm, openContactPage } from '../support/contact-form'
import { goOffline, waitForOfflineReady } from '../support/offline'
import { E2E_API_URL } from '../support/ports'
import {
  E2E_SITE_DIR,
  expectNotFoundPage,
  NOT_SERVED_PATHS,
  shippedHeadersOf,
  shippedRules,
} from '../support/shipped-headers'
import {
  allowNotFoundConsoleOn,
  allPages,
  gotoWithStatus,
  NOT_FOUND_PATH,
  waitForHydration,
} from '../support/site'
import { expect, REFUSED, test } from '../support/strict-page'

/**
 * The security headers as shipped: `vite preview` serves the build's own `_headers` file, and every
 * page, the service worker and the update toast run under that policy without one violation. (The
 * strict harness fails any browser test on a violation; these tests look for one on purpose.) The
 * form's paths (online, offline, queued, delivered) and the update prompt are covered by their own
 * specs, under the same harness and so the same check.
 */

const SHIPPED = shippedRules()

/** Loads everything the page loads after hydration too (lazy chunks, fonts, the manifest). */
async function settle(page: Page): Promise<void> {
  await waitForHydration(page)
  await page.waitForLoadState('networkidle')
}

test('the policy is the one the issue states, with the Supabase origin the build was given', () => {
  expect(headersFor(SHIPPED, '/')['Content-Security-Policy']).toBe(
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
      `font-src 'self'; connect-src 'self' ${E2E_API_URL}; manifest-src 'self'; worker-src 'self'; ` +
      "form-action 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  )
  expect(headersFor(SHIPPED, '/')['Content-Security-Policy']).toBe(
    contentSecurityPolicy(E2E_API_URL),
  )
})

test('no built page holds inline code: every script is a file, no style attribute, element or handler', () => {
  const pages = readdirSync(E2E_SITE_DIR).filter((name) => name.endsWith('.html'))
  expect(pages.length).toBeGreaterThanOrEqual(allPages.length)
  for (const name of pages) {
    const html = readFileSync(join(E2E_SITE_DIR, name), 'utf8')
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length, name).toBeGreaterThan(0)
    for (const [tag, attributes, body] of scripts) {
      // Data blocks never run, so the policy does not cover them (and need not).
      if (/\btype="application\/(ld\+)?json"/.test(attributes!)) continue
      expect(attributes, `${name}: ${tag}`).toMatch(/\bsrc="\/[^"]+"/)
      expect(body, `${name}: ${tag}`).toBe('')
    }
    expect(html, name).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|javascript:/i)
  }
})

for (const { path } of allPages) {
  test(`${path} comes with the shipped headers and runs under its policy without a violation`, async ({
    page,
    cspViolations,
    allowConsoleError,
  }) => {
    const response = await gotoWithStatus(page, path, allowConsoleError)
    // An unknown address answers with the 404 page and that page's headers, as nginx does.
    expect(shippedHeadersOf(SHIPPED, response!.headers())).toEqual(
      headersFor(SHIPPED, path === NOT_FOUND_PATH ? '/404.html' : path),
    )
    await settle(page)
    expect(cspViolations).toEqual([])
  })
}

test('no page refers its visitors: requests leave without a Referer', async ({ page }) => {
  await page.goto('/services')
  await settle(page)
  const [request] = await Promise.all([
    page.waitForRequest('**/robots.txt'),
    page.evaluate(() => fetch('/robots.txt').then((answer) => answer.text())),
  ])
  expect(await request.headerValue('referer')).toBeNull()
})

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' })

  test('the worker, its precache and every page it serves offline keep the policy, without a violation', async ({
    page,
    context,
    cspViolations,
    allowConsoleError,
  }) => {
    const sw = await page.request.get('/sw.js')
    expect(sw.headers()['content-security-policy']).toBe(
      headersFor(SHIPPED, '/sw.js')['Content-Security-Policy'],
    )
    expect(sw.headers()['cache-control']).toBe('no-cache')

    await page.goto('/')
    await waitForOfflineReady(page)

    await goOffline(context)
    for (const { path } of allPages) {
      allowNotFoundConsoleOn(path, allowConsoleError)
      const response = await page.goto(path)
      expect(response?.fromServiceWorker(), path).toBe(true)
      // The precache keeps each page's response headers, so the policy holds offline as well.
      expect(response?.headers()['content-security-policy'], path).toBe(
        headersFor(SHIPPED, path)['Content-Security-Policy'],
      )
      await waitForHydration(page)
    }
    await openContactPage(page)
    await expect(contactForm(page).submit).toBeEnabled()
    expect(cspViolations).toEqual([])
  })
})

test('unknown addresses and the host files get the 404 page with status 404, whatever the Accept header', async ({
  request,
}) => {
  await expectNotFoundPage(request, NOT_SERVED_PATHS, (response) =>
    expect(response.headers()['content-security-policy']).toBe(contentSecurityPolicy(E2E_API_URL)),
  )
})

test('hashed assets are cached for good, and the service worker is revalidated', async ({
  request,
}) => {
  const html = await (await request.get('/')).text()
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
  expect(script).toBeDefined()
  expect((await request.get(script!)).headers()['cache-control']).toBe(
    'public, max-age=31536000, immutable',
  )
  for (const path of ['/', '/services', '/sw.js', '/manifest.webmanifest']) {
    expect((await request.get(path)).headers()['cache-control'], path).toBe('no-cache')
  }
})

test('the harness sees a violation: inline code is refused under the shipped policy', async ({
  browser,
  baseURL,
}) => {
  // A context of its own, outside the strict harness, which would (rightly) fail on this.
  const context = await browser.newContext({ baseURL })
  try {
    const page = await context.newPage()
    const refused: string[] = []
    page.on('console', (message) => {
      if (REFUSED.test(message.text())) refused.push(message.text())
    })
    await page.goto('/about')
    await waitForHydration(page)
    const directives = await page.evaluate(async () => {
      const seen: string[] = []
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(event.effectiveDirective),
      )
      const script = document.createElement('script')
      script.textContent = 'document.title = "injected"'
      document.body.append(script)
      const holder = document.createElement('div')
      holder.innerHTML = '<span style="color: red">styled</span>'
      document.body.append(holder)
      await new Promise((resolve) => setTimeout(resolve, 100))
      return seen
    })
    expect(directives).toEqual(expect.arrayContaining(['script-src-elem', 'style-src-attr']))
    expect(await page.title()).not.toBe('injected')
    expect(refused.length).toBeGreaterThanOrEqual(2)
  } finally {
    await context.close()
  }
})
