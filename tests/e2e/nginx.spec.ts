import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  expect,
  request as http,
  test,
  type APIRequestContext,
  type APIResponse,
} from '@playwright/test'
import { headersFor } from '../../src/build/security-headers'
import { startNginx, type RunningNginx } from '../support/nginx'
import {
  E2E_SITE_DIR,
  expectNotFoundPage,
  NOT_SERVED_PATHS,
  shippedHeadersOf as pick,
  shippedRules,
} from '../support/shipped-headers'
import { allPages, NOT_FOUND_PATH } from '../support/site'

/**
 * The build on a real nginx (Debian's nginx-light) with the configuration it ships: the same
 * headers as `_headers` on every answer, clean page addresses, the 404 page with status 404, and a
 * service worker that browsers revalidate. No browser: these are questions for the server alone.
 */

const SITE = E2E_SITE_DIR
const SHIPPED = shippedRules(SITE)
const file = (name: string) => readFileSync(join(SITE, name), 'utf8')
const shippedHeadersOf = (response: APIResponse) => pick(SHIPPED, response.headers())

let nginx: RunningNginx
let client: APIRequestContext

test.beforeAll(async () => {
  nginx = await startNginx(SITE)
  client = await http.newContext({ baseURL: nginx.origin, maxRedirects: 0 })
})

test.afterAll(async () => {
  await client?.dispose()
  await nginx?.stop()
})

test('every page and the 404 page carry exactly the headers _headers gives them', async () => {
  for (const { path } of allPages) {
    const response = await client.get(path)
    expect(response.status(), path).toBe(path === NOT_FOUND_PATH ? 404 : 200)
    // nginx answers an unknown address with the 404 page through `error_page`, so with its headers.
    expect(shippedHeadersOf(response), path).toEqual(
      headersFor(SHIPPED, path === NOT_FOUND_PATH ? '/404.html' : path),
    )
  }
})

test('clean addresses serve the pages; a trailing slash redirects; the .html address serves the page too', async () => {
  for (const [path, page] of [
    ['/', 'index.html'],
    ['/services', 'services.html'],
    ['/case-studies', 'case-studies.html'],
    ['/services.html', 'services.html'],
  ] as const) {
    const response = await client.get(path)
    expect(response.status(), path).toBe(200)
    expect(response.headers()['content-type'], path).toBe('text/html; charset=utf-8')
    expect(await response.text(), path).toBe(file(page))
  }
  const redirect = await client.get('/services/?from=test')
  expect(redirect.status()).toBe(301)
  expect(redirect.headers()['location']).toBe('/services?from=test')
  expect(shippedHeadersOf(redirect)['Content-Security-Policy']).toBe(
    headersFor(SHIPPED, '/')['Content-Security-Policy'],
  )
})

test('unknown addresses and the host files get the 404 page with status 404, whatever the Accept header', async () => {
  await expectNotFoundPage(client, [...NOT_SERVED_PATHS, '/no-such-page/'], (response, path) =>
    expect(shippedHeadersOf(response), path).toEqual(headersFor(SHIPPED, '/404.html')),
  )
})

test('the service worker is revalidated on every check, hashed assets are cached for good', async () => {
  const sw = await client.get('/sw.js')
  expect(sw.status()).toBe(200)
  expect(sw.headers()['cache-control']).toBe('no-cache')
  expect(sw.headers()['content-type']).toBe('application/javascript; charset=utf-8')
  expect(shippedHeadersOf(sw)).toEqual(headersFor(SHIPPED, '/sw.js'))
  // Revalidation is cheap: the browser's conditional request gets a 304 with the same headers.
  const etag = sw.headers()['etag']
  expect(etag).toBeTruthy()
  const revalidated = await client.get('/sw.js', { headers: { 'If-None-Match': etag! } })
  expect(revalidated.status()).toBe(304)
  expect(revalidated.headers()['cache-control']).toBe('no-cache')

  const script = /src="(\/assets\/[^"]+\.js)"/.exec(file('index.html'))?.[1]
  expect(script).toBeDefined()
  const asset = await client.get(script!)
  expect(asset.status()).toBe(200)
  expect(shippedHeadersOf(asset)).toEqual(headersFor(SHIPPED, script!))
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable')

  const manifest = await client.get('/manifest.webmanifest')
  expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/)
  expect(manifest.headers()['cache-control']).toBe('no-cache')
})
