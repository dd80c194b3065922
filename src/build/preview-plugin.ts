import { existsSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Plugin } from 'vite'
import {
  HOST_FILES,
  headersFor,
  isHostFile,
  parseHeadersFile,
  rewriteOf,
  type HeaderRule,
} from './security-headers.ts'

/**
 * Makes `vite preview` (so `npm start` and the browser tests) answer like the static hosts the site
 * deploys to:
 * - every response carries the headers of the served build's own `_headers` file, read as Netlify
 *   and Cloudflare Pages read it, so what is tested is what ships;
 * - `/services` answers with `services.html`, `/services/` redirects to `/services`, and `/` is
 *   `index.html`, whatever the request's `Accept` header;
 * - an unknown address gets `404.html` with status 404, whatever the request's `Accept` header
 *   (Vite's own answer is an empty 404), and so do the host files published next to the site.
 */
export function previewPlugin(): Plugin {
  return {
    name: 'site:preview',
    configurePreviewServer(server) {
      const distDir = resolve(server.config.root, server.config.build.outDir)

      // Before Vite's static files: their own Cache-Control gives way to a header already set.
      server.middlewares.use((req, res, next) => {
        const { pathname } = new URL(req.url ?? '/', 'http://preview.invalid')
        // Read on each request: the update test swaps the served build while the server runs.
        readFile(join(distDir, HOST_FILES.headers), 'utf8').then(
          (text) => {
            const rules = parseHeadersFile(text)
            shippedRules.set(res, rules)
            setHeaders(res, headersFor(rules, pathname))
            if (isHostFile(pathname)) return sendNotFound(req.method, res, distDir, next)
            next()
          },
          (error: unknown) =>
            next(
              new Error(`${HOST_FILES.headers} is missing from ${distDir}: build the site again`, {
                cause: error,
              }),
            ),
        )
      })

      // After Vite's static files and its clean-URL rewrite (`/services` to `/services.html`, which
      // Vite's HTML middleware after this one serves): only what they missed is handled here.
      return () => {
        server.middlewares.use((req, res, next) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') return next()
          const { pathname, search } = new URL(req.url ?? '/', 'http://preview.invalid')
          if (pathname.endsWith('.html') && existsSync(join(distDir, pathname))) return next()

          const withoutSlash = pathname.replace(/\/+$/, '')
          if (
            withoutSlash !== pathname &&
            withoutSlash !== '' &&
            existsSync(join(distDir, `${withoutSlash}.html`))
          ) {
            res.writeHead(301, { Location: `${withoutSlash}${search}` }).end()
            return
          }
          // Vite maps `/services` to its page, and `/` to index.html, only for requests that accept
          // HTML; hosts do it whatever the Accept.
          const page = pathname.endsWith('/')
            ? join(distDir, pathname, 'index.html')
            : join(distDir, `${pathname}.html`)
          if (existsSync(page)) return sendFile(req.method, res, page, 200, next)
          // An app's own routes (the staff inbox's), answered with its page as the hosts do.
          readFile(join(distDir, HOST_FILES.redirects), 'utf8').then(
            (redirects) => {
              const served = rewriteOf(redirects, pathname)
              if (served) sendFile(req.method, res, join(distDir, served), 200, next)
              else sendNotFound(req.method, res, distDir, next)
            },
            () => sendNotFound(req.method, res, distDir, next),
          )
        })
      }
    },
  }
}

/** The rules each response was given, so that a 404 can swap them for the 404 page's. */
const shippedRules = new WeakMap<ServerResponse, HeaderRule[]>()

function setHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
}

/**
 * The 404 page, with the headers of `/404.html` rather than of the address asked for (as nginx's
 * `error_page` does), so a missing `/assets/…` file is not cached as immutable.
 */
function sendNotFound(
  method: string | undefined,
  res: ServerResponse,
  distDir: string,
  next: (error?: unknown) => void,
): void {
  const rules = shippedRules.get(res) ?? []
  for (const rule of rules) for (const name of Object.keys(rule.headers)) res.removeHeader(name)
  setHeaders(res, headersFor(rules, '/404.html'))
  sendFile(method, res, join(distDir, '404.html'), 404, next)
}

function sendFile(
  method: string | undefined,
  res: ServerResponse,
  file: string,
  status: number,
  next: (error?: unknown) => void,
): void {
  readFile(file).then(
    (page) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' })
      res.end(method === 'HEAD' ? undefined : page)
    },
    (error: unknown) => next(error),
  )
}
