import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test'
import { parseHeadersFile, type HeaderRule } from '../../src/build/security-headers'
import { E2E_BUILD_DIR } from './ports'
import { NOT_FOUND_PATH } from './site'

/** The folder the browser tests serve, as an absolute path. */
export const E2E_SITE_DIR = join(fileURLToPath(new URL('../..', import.meta.url)), E2E_BUILD_DIR)

/** The header rules the tested build ships, read from its own `_headers` file. */
export function shippedRules(siteDir = E2E_SITE_DIR): HeaderRule[] {
  return parseHeadersFile(readFileSync(join(siteDir, '_headers'), 'utf8'))
}

/**
 * Of a response's headers (Playwright's, lower-cased), those the shipped rules name, under the
 * rules' spelling: comparable with `headersFor(rules, path)`.
 */
export function shippedHeadersOf(
  rules: readonly HeaderRule[],
  received: Record<string, string>,
): Record<string, string> {
  const names = new Set(rules.flatMap((rule) => Object.keys(rule.headers)))
  return Object.fromEntries(
    [...names].flatMap((name) => {
      const value = received[name.toLowerCase()]
      return value === undefined ? [] : [[name, value]]
    }),
  )
}

/** An unknown page and the files in the build that the host must not serve. */
export const NOT_SERVED_PATHS = [
  NOT_FOUND_PATH,
  '/assets/no-such-file.js',
  '/_headers',
  '/vercel.json',
  '/nginx/site.conf',
]

/**
 * Asks for each path with each Accept header and expects the 404 page with status 404, whatever
 * was asked for; `expectHeaders` checks the host's headers on each answer.
 */
export async function expectNotFoundPage(
  request: APIRequestContext,
  paths: readonly string[],
  expectHeaders: (response: APIResponse, path: string) => void,
): Promise<void> {
  const notFoundPage = readFileSync(join(E2E_SITE_DIR, '404.html'), 'utf8')
  for (const path of paths) {
    for (const accept of ['*/*', 'text/html', 'application/json']) {
      const response = await request.get(path, { headers: { Accept: accept } })
      expect(response.status(), `${path} (Accept: ${accept})`).toBe(404)
      expect(response.headers()['content-type']).toBe('text/html; charset=utf-8')
      expect(await response.text()).toBe(notFoundPage)
      expectHeaders(response, path)
    }
  }
}
