/**
 * The site's HTTP response headers, said once: the security policy every response carries and the
 * caching of the files that need it. The build writes them out for each host the README names
 * (`_headers` for Netlify and Cloudflare Pages, `vercel.json`, an nginx snippet), and `vite preview`
 * serves the written `_headers`, so local runs and tests see exactly what a host sends.
 *
 * Pure data and functions: no file system, no Vite. See the README, "Deployment" and "Decisions".
 */

import { BUILD_MANIFEST_PATH } from '../shared/build-id.ts'

export type Headers = Readonly<Record<string, string>>

/**
 * Headers for the addresses `path` matches: one exact address, or a prefix ending in `/*`; and,
 * for an app's own routes, the page that answers them (`serves`: `/index.html`).
 */
export type HeaderRule = {
  readonly path: string
  readonly headers: Headers
  readonly serves?: string
}

/**
 * The two apps the build writes headers for, each deployed to its own origin: the public site, and
 * the staff inbox (`src/inbox/`), which search engines must not index and which may ask for a passkey.
 */
export type App = 'site' | 'inbox'

/**
 * The Content-Security-Policy: only the site's own files, no inline code of any kind, and network
 * requests to the site and its Supabase project alone. `data:` images are Vite's inlined small
 * assets; nothing else may use `data:`. `manifest-src` and `worker-src` must be named because
 * `default-src 'none'` would refuse the web app manifest and the service worker.
 *
 * The public site's `script-src` also has `'wasm-unsafe-eval'`: it lets the site's own scripts
 * compile WebAssembly (the engine that seals attached files, about 3x faster than JavaScript on a
 * slow phone), and nothing else: no `eval`, no `new Function`, no script from anywhere but 'self'.
 * The staff inbox seals in JavaScript and keeps `'self'` alone. See src/README.md, "Decisions".
 */
export function contentSecurityPolicy(supabaseUrl: string, app: App = 'site'): string {
  const directives: ReadonlyArray<readonly [string, ...string[]]> = [
    ['default-src', "'none'"],
    app === 'site' ? ['script-src', "'self'", "'wasm-unsafe-eval'"] : ['script-src', "'self'"],
    ['style-src', "'self'"],
    ['img-src', "'self'", 'data:'],
    ['font-src', "'self'"],
    ['connect-src', "'self'", new URL(supabaseUrl).origin],
    ['manifest-src', "'self'"],
    ['worker-src', "'self'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
    ['base-uri', "'none'"],
    ['object-src', "'none'"],
  ]
  return directives.map((directive) => directive.join(' ')).join('; ')
}

/**
 * Browser features the site never uses, denied to it and to anything that could end up embedded in
 * it. Only names Chromium knows: an unknown name costs a console error on every page.
 */
export const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const

/** Two years, the HSTS preload list's own minimum (`preload` stays off until the domain is committed). */
export const HSTS_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60

/** The inbox unlocks its key with a passkey where the device has one (WebAuthn, same origin). */
function deniedFeatures(app: App): readonly string[] {
  return app === 'inbox'
    ? DENIED_FEATURES.filter((feature) => feature !== 'publickey-credentials-get')
    : DENIED_FEATURES
}

/** What every response carries, whatever the address. */
export function securityHeaders(supabaseUrl: string, app: App = 'site'): Headers {
  return {
    'Content-Security-Policy': contentSecurityPolicy(supabaseUrl, app),
    'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
    'X-Content-Type-Options': 'nosniff',
    // `frame-ancestors 'none'` says the same to current browsers; this is for those before CSP 2.
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Permissions-Policy': deniedFeatures(app)
      .map((feature) => `${feature}=()`)
      .join(', '),
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    // Never linked and not in a sitemap; this keeps it out of an index if its address leaks.
    ...(app === 'inbox' ? { 'X-Robots-Tag': 'noindex, nofollow' } : {}),
  }
}

/** Revalidated on every use: pages, the service worker and the manifest name the current build. */
export const REVALIDATE = 'no-cache'
/** Vite's hashed file names change with their content, so a copy never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The addresses that answer with a built page: `index.html` at `/`, `about.html` at `/about` and itself. */
export function pageAddresses(htmlFiles: readonly string[]): string[] {
  return [...htmlFiles].sort().flatMap((file) => {
    const clean = `/${file.replace(/\.html$/, '')}`
    return file === 'index.html' ? ['/', '/index.html'] : [clean, `/${file}`]
  })
}

/**
 * Every rule the hosts get. Rules may overlap (`/*` matches everything), and Netlify and Cloudflare
 * apply every matching rule, joining a header that two rules set: so no header is ever set by two
 * rules that can match one address, and each host's file can be checked against the others.
 */
export function headerRules(options: {
  supabaseUrl: string
  htmlFiles: readonly string[]
  app?: App
  /** Prefixes (`/inquiries/*`) the app routes itself: hosts answer them with `index.html`. */
  appRoutes?: readonly string[]
}): HeaderRule[] {
  const revalidated = [
    ...pageAddresses(options.htmlFiles),
    '/sw.js',
    '/manifest.webmanifest',
    BUILD_MANIFEST_PATH,
  ]
  return [
    { path: '/*', headers: securityHeaders(options.supabaseUrl, options.app) },
    { path: '/assets/*', headers: { 'Cache-Control': IMMUTABLE } },
    ...revalidated.map((path) => ({ path, headers: { 'Cache-Control': REVALIDATE } })),
    ...(options.appRoutes ?? []).map((path) => ({
      path,
      headers: { 'Cache-Control': REVALIDATE },
      serves: '/index.html',
    })),
  ]
}

/** Whether a rule's path matches a request path, as Netlify and Cloudflare Pages match them. */
export function ruleMatches(rulePath: string, pathname: string): boolean {
  return rulePath.endsWith('/*')
    ? pathname.startsWith(rulePath.slice(0, -1))
    : pathname === rulePath
}

/** The headers a host sends for `pathname`: every matching rule's, in order. */
export function headersFor(rules: readonly HeaderRule[], pathname: string): Record<string, string> {
  const merged: Record<string, string> = {}
  for (const rule of rules.filter((candidate) => ruleMatches(candidate.path, pathname))) {
    for (const [name, value] of Object.entries(rule.headers)) {
      // Cloudflare's documented behaviour for a header two rules set (headerRules never does).
      merged[name] = name in merged ? `${merged[name]}, ${value}` : value
    }
  }
  return merged
}

/** Files the build writes next to the site for the hosts. None of them is a page to serve. */
export const HOST_FILES = {
  headers: '_headers',
  redirects: '_redirects',
  vercel: 'vercel.json',
  nginxSite: 'nginx/site.conf',
  nginxHeaders: 'nginx/site-headers.conf',
} as const

/** Where the nginx snippet expects the headers file, relative to nginx's configuration folder. */
export const NGINX_HEADERS_INCLUDE = 'snippets/site-headers.conf'

/** Addresses of the host files in the published folder, which nginx and `vite preview` answer 404. */
export function isHostFile(pathname: string): boolean {
  return (
    pathname === `/${HOST_FILES.headers}` ||
    pathname === `/${HOST_FILES.redirects}` ||
    pathname === `/${HOST_FILES.vercel}` ||
    pathname.startsWith('/nginx/')
  )
}

const GENERATED =
  'Generated by the build from src/build/security-headers.ts: change that file, not this one.'

/** Netlify's and Cloudflare Pages' `_headers`: a path line, then its headers indented. */
export function renderHeadersFile(rules: readonly HeaderRule[]): string {
  const blocks = rules.map((rule) =>
    [rule.path, ...Object.entries(rule.headers).map(([name, value]) => `  ${name}: ${value}`)].join(
      '\n',
    ),
  )
  return `# ${GENERATED}\n${blocks.join('\n\n')}\n`
}

/** Netlify's and Cloudflare Pages' `_redirects`: each app route rewritten (200) to its page. */
export function renderRedirectsFile(rules: readonly HeaderRule[]): string {
  const lines = rules.flatMap((rule) => (rule.serves ? [`${rule.path} ${rule.serves} 200`] : []))
  return `# ${GENERATED}\n${lines.join('\n')}\n`
}

/** The page `_redirects` serves at `pathname`, if it names one. */
export function rewriteOf(redirects: string, pathname: string): string | null {
  for (const line of redirects.split('\n')) {
    const [from, to, status] = line.trim().split(/\s+/)
    if (from && to && status === '200' && !from.startsWith('#') && ruleMatches(from, pathname))
      return to
  }
  return null
}

/** Reads a `_headers` file back into rules (the subset of the syntax `renderHeadersFile` writes). */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: { path: string; headers: Record<string, string> }[] = []
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: {} })
      continue
    }
    const separator = line.indexOf(':')
    const rule = rules.at(-1)
    if (separator < 0 || !rule)
      throw new Error(`_headers line ${index + 1} is not "  Name: value" under a path`)
    rule.headers[line.slice(0, separator).trim()] = line.slice(separator + 1).trim()
  }
  return rules
}

/** Vercel's `source` patterns (path-to-regexp): a trailing `*` is a `(.*)` group. */
function vercelSource(path: string): string {
  return path.endsWith('/*') ? `${path.slice(0, -1)}(.*)` : path
}

/**
 * `vercel.json` for a deployment of the built folder itself (see the README): `/about` serves
 * `about.html`, `/about/` redirects to `/about`, and every rule's headers.
 */
export function renderVercelConfig(rules: readonly HeaderRule[]): string {
  const config = {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    cleanUrls: true,
    trailingSlash: false,
    rewrites: rules.flatMap((rule) =>
      rule.serves ? [{ source: vercelSource(rule.path), destination: rule.serves }] : [],
    ),
    headers: rules.map((rule) => ({
      source: vercelSource(rule.path),
      headers: Object.entries(rule.headers).map(([key, value]) => ({ key, value })),
    })),
  }
  return `${JSON.stringify(config, null, 2)}\n`
}

function nginxString(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`
}

/** `add_header` lines; `always` so that 404s and redirects carry them too. */
function nginxHeaderLines(headers: Headers, indent: string): string[] {
  return Object.entries(headers).map(
    ([name, value]) => `${indent}add_header ${name} ${nginxString(value)} always;`,
  )
}

/** The headers file that every nginx `location` includes: the `/*` rule's headers. */
export function renderNginxHeaders(rules: readonly HeaderRule[]): string {
  const everywhere = rules.find((rule) => rule.path === '/*')
  if (!everywhere)
    throw new Error('The header rules have no "/*" rule for nginx to include everywhere')
  return (
    [
      `# ${GENERATED}`,
      `# Included by site.conf in every location.`,
      ...nginxHeaderLines(everywhere.headers, ''),
    ].join('\n') + '\n'
  )
}

/**
 * The nginx snippet for inside a `server { }` block that sets `root` to the published folder.
 * nginx drops every inherited `add_header` in a block that has one of its own, so each `location`
 * includes the shared headers file before its own headers. Pages answer at clean addresses, a
 * trailing slash redirects, unknown addresses get `404.html` with status 404.
 */
export function renderNginxSite(rules: readonly HeaderRule[]): string {
  const include = `include ${NGINX_HEADERS_INCLUDE};`
  const location = (match: string, body: string[]) => [
    `location ${match} {`,
    `  ${include}`,
    ...body,
    '}',
  ]
  const blocks: string[][] = rules.map((rule) => {
    const own = rule.path === '/*' ? [] : nginxHeaderLines(rule.headers, '  ')
    if (rule.path === '/*') return location('/', ['  try_files $uri $uri.html =404;'])
    if (rule.path.endsWith('/*'))
      return location(`^~ ${rule.path.slice(0, -1)}`, [
        ...own,
        `  try_files ${rule.serves ?? '$uri'} =404;`,
      ])
    if (rule.path === '/') return location('= /', [...own, '  try_files /index.html =404;'])
    // Debian's mime.types predates the web app manifest's own type.
    const types = rule.path.endsWith('.webmanifest')
      ? ['  types { application/manifest+json webmanifest; }']
      : []
    return location(`= ${rule.path}`, [...own, ...types, '  try_files $uri $uri.html =404;'])
  })
  return [
    `# ${GENERATED}`,
    `# Include inside the site's server { } block, after root; ${NGINX_HEADERS_INCLUDE} must hold site-headers.conf.`,
    'server_tokens off;',
    // Redirects name a path, not a scheme and host, so they hold behind a TLS-terminating proxy.
    'absolute_redirect off;',
    'charset utf-8;',
    'gzip on;',
    'gzip_vary on;',
    'gzip_types text/css application/javascript application/json application/manifest+json image/svg+xml text/plain text/xml;',
    'error_page 404 /404.html;',
    '',
    ...blocks.flatMap((block) => [...block, '']),
    '# A page address with a trailing slash moves to the address without it; anything else is unknown.',
    ...location('~ ^(?<page>/.+?)/+$', [
      '  if (-f $document_root$page.html) {',
      '    return 301 $page$is_args$args;',
      '  }',
      '  return 404;',
    ]),
    '',
    '# The host files published next to the site are not pages.',
    ...location('~ ^/(_headers|_redirects|vercel\\.json|nginx/)', ['  return 404;']),
    '',
  ].join('\n')
}
