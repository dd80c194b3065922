import { describe, expect, it } from 'vitest'
import {
  NGINX_HEADERS_INCLUDE,
  contentSecurityPolicy,
  headerRules,
  headersFor,
  isHostFile,
  pageAddresses,
  parseHeadersFile,
  renderHeadersFile,
  renderNginxHeaders,
  renderNginxSite,
  renderVercelConfig,
  ruleMatches,
  type HeaderRule,
} from './security-headers'

const SUPABASE_URL = 'https://abcdefghijklmnop.supabase.co/'
const HTML_FILES = ['404.html', 'about.html', 'contact.html', 'index.html', 'services.html']
const rules = headerRules({ supabaseUrl: SUPABASE_URL, htmlFiles: HTML_FILES })

/** Rules as a comparable value: sorted by path, headers by name. */
const normalized = (list: readonly HeaderRule[]) =>
  [...list]
    .map((rule) => ({
      path: rule.path,
      headers: Object.fromEntries(Object.entries(rule.headers).sort()),
    }))
    .sort((a, b) => a.path.localeCompare(b.path))

function rulesFromVercel(text: string): HeaderRule[] {
  const config = JSON.parse(text) as {
    cleanUrls: boolean
    headers: { source: string; headers: { key: string; value: string }[] }[]
  }
  expect(config.cleanUrls).toBe(true)
  return config.headers.map(({ source, headers }) => ({
    path: source.replace(/\(\.\*\)$/, '*'),
    headers: Object.fromEntries(headers.map(({ key, value }) => [key, value])),
  }))
}

function nginxHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [, name, value] of text.matchAll(/add_header (\S+) "((?:[^"\\]|\\.)*)" always;/g)) {
    headers[name!] = value!.replace(/\\(.)/g, '$1')
  }
  return headers
}

/**
 * The rules an nginx snippet expresses: the included file is the `/*` rule; each plain location
 * is the rule for its address (`/` prefix is `/*`, `^~ /assets/` is `/assets/*`, `= /x` is `/x`).
 */
function rulesFromNginx(site: string, included: string): HeaderRule[] {
  const blocks = [...site.matchAll(/^location (.+?) \{\n([\s\S]*?)^\}/gm)]
  expect(blocks.length).toBeGreaterThan(0)
  const found: HeaderRule[] = [{ path: '/*', headers: nginxHeaderLines(included) }]
  for (const [, match, body] of blocks) {
    // nginx forgets inherited add_header lines in any block with its own: each must include the file.
    expect(body, `location ${match}`).toContain(`include ${NGINX_HEADERS_INCLUDE};`)
    if (match!.startsWith('~')) {
      expect(nginxHeaderLines(body!), `location ${match}`).toEqual({})
      continue
    }
    if (match === '/') continue
    const path = match!.startsWith('^~ ') ? `${match!.slice(3)}*` : match!.replace(/^= /, '')
    found.push({ path, headers: nginxHeaderLines(body!) })
  }
  return found
}

describe('the security policy', () => {
  it('is the Content-Security-Policy of issue 10, with the configured Supabase origin', () => {
    // 'wasm-unsafe-eval': WebAssembly may be compiled (the file sealer's engine, issue 26), no eval.
    expect(contentSecurityPolicy(SUPABASE_URL)).toBe(
      "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
        "font-src 'self'; " +
        "connect-src 'self' https://abcdefghijklmnop.supabase.co; manifest-src 'self'; worker-src 'self'; " +
        "form-action 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    )
  })

  it('sends every security header on every address, pages and unknown ones alike', () => {
    for (const path of ['/', '/about', '/sw.js', '/assets/index-abc.js', '/no-such-page']) {
      expect(headersFor(rules, path)).toMatchObject({
        'Content-Security-Policy': contentSecurityPolicy(SUPABASE_URL),
        'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Resource-Policy': 'same-origin',
      })
      expect(headersFor(rules, path)['Permissions-Policy']).toMatch(/^(?:[a-z-]+=\(\)(?:, |$))+$/)
    }
    expect(headersFor(rules, '/')['Permissions-Policy']).toContain('camera=(), ')
  })

  it('has pages, the service worker and the manifest revalidated, hashed assets kept for good', () => {
    for (const path of [
      '/',
      '/index.html',
      '/about',
      '/about.html',
      '/404.html',
      '/sw.js',
      '/manifest.webmanifest',
    ]) {
      expect(headersFor(rules, path)['Cache-Control'], path).toBe('no-cache')
    }
    expect(headersFor(rules, '/assets/index-abc.js')['Cache-Control']).toBe(
      'public, max-age=31536000, immutable',
    )
    expect(headersFor(rules, '/robots.txt')['Cache-Control']).toBeUndefined()
  })

  it('never sets one header in two rules that match one address (the hosts would join them)', () => {
    const samples = [...rules.map((rule) => rule.path.replace(/\*$/, 'x.js')), '/no-such-page']
    for (const path of samples) {
      const names = rules
        .filter((rule) => ruleMatches(rule.path, path))
        .flatMap((rule) => Object.keys(rule.headers))
      expect(new Set(names).size, path).toBe(names.length)
    }
  })

  it('names each page at its clean address and its file', () => {
    expect(pageAddresses(['services.html', 'index.html'])).toEqual([
      '/',
      '/index.html',
      '/services',
      '/services.html',
    ])
  })

  it('treats the host files as files not to serve', () => {
    expect(['/_headers', '/vercel.json', '/nginx/site.conf'].every(isHostFile)).toBe(true)
    expect(['/', '/services', '/sw.js'].some(isHostFile)).toBe(false)
  })
})

describe('the staff inbox’s headers (its own origin, from the same source)', () => {
  const inbox = headerRules({
    supabaseUrl: SUPABASE_URL,
    htmlFiles: ['404.html', 'index.html'],
    app: 'inbox',
  })
  const everywhere = headersFor(inbox, '/')

  it('keeps the site’s policy but WebAssembly, asks search engines not to index it, and allows a passkey', () => {
    // The inbox seals reply files in JavaScript: no WebAssembly, so no 'wasm-unsafe-eval'.
    expect(everywhere['Content-Security-Policy']).toBe(
      contentSecurityPolicy(SUPABASE_URL).replace(" 'wasm-unsafe-eval'", ''),
    )
    expect(everywhere['Content-Security-Policy']).toBe(contentSecurityPolicy(SUPABASE_URL, 'inbox'))
    expect(everywhere['Content-Security-Policy']).toContain("script-src 'self';")
    expect(everywhere['X-Robots-Tag']).toBe('noindex, nofollow')
    expect(everywhere['Permissions-Policy']).not.toContain('publickey-credentials-get')
    expect(everywhere['Permissions-Policy']).toContain('camera=()')
    // The site itself never asks for a passkey, and is indexed.
    const site = headersFor(rules, '/')
    expect(site['Permissions-Policy']).toContain('publickey-credentials-get=()')
    expect(site['X-Robots-Tag']).toBeUndefined()
  })

  it('is written for every host as the site’s are', () => {
    expect(normalized(parseHeadersFile(renderHeadersFile(inbox)))).toEqual(normalized(inbox))
    expect(normalized(rulesFromVercel(renderVercelConfig(inbox)))).toEqual(normalized(inbox))
    expect(normalized(rulesFromNginx(renderNginxSite(inbox), renderNginxHeaders(inbox)))).toEqual(
      normalized(inbox),
    )
  })
})

describe('the host files', () => {
  const headersFile = renderHeadersFile(rules)
  const vercel = renderVercelConfig(rules)
  const nginxSite = renderNginxSite(rules)
  const nginxHeaders = renderNginxHeaders(rules)

  it('_headers, vercel.json and the nginx snippet carry the same rules', () => {
    const expected = normalized(rules)
    expect(normalized(parseHeadersFile(headersFile))).toEqual(expected)
    expect(normalized(rulesFromVercel(vercel))).toEqual(expected)
    expect(normalized(rulesFromNginx(nginxSite, nginxHeaders))).toEqual(expected)
  })

  it('_headers stays within Cloudflare Pages limits (100 rules, 2,000 characters a line)', () => {
    expect(rules.length).toBeLessThanOrEqual(100)
    expect(Math.max(...headersFile.split('\n').map((line) => line.length))).toBeLessThanOrEqual(
      2000,
    )
  })

  it('vercel.json serves /about from about.html and redirects /about/', () => {
    expect(JSON.parse(vercel)).toMatchObject({ cleanUrls: true, trailingSlash: false })
  })

  it('nginx answers unknown addresses with 404.html and pages at their clean address', () => {
    expect(nginxSite).toContain('error_page 404 /404.html;')
    expect(nginxSite).toMatch(/location \/ \{[^}]*try_files \$uri \$uri\.html =404;/)
    expect(
      nginxHeaders
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('add_header')).length,
    ).toBe(Object.keys(headersFor(rules, '/no-such-page')).length)
  })
})
