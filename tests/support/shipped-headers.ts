import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseHeadersFile, type HeaderRule } from '../../src/build/security-headers'
import { E2E_BUILD_DIR } from './ports'

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
