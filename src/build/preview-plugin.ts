import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Plugin } from 'vite'

/**
 * Makes `vite preview` answer like the static hosts the site deploys to: `/services/` redirects to
 * `/services`, and an unknown address gets `404.html` with status 404 (Vite's own answer is an
 * empty 404). Runs after Vite's static and clean-URL handling, so it only sees what they missed.
 */
export function previewPlugin(): Plugin {
  return {
    name: 'site:preview',
    configurePreviewServer(server) {
      const distDir = resolve(server.config.root, server.config.build.outDir)
      return () => {
        server.middlewares.use((req, res, next) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') return next()
          const { pathname, search } = new URL(req.url ?? '/', 'http://preview.invalid')
          if (pathname.endsWith('.html') && existsSync(join(distDir, pathname))) return next()

          const withoutSlash = pathname.replace(/\/+$/, '')
          if (withoutSlash !== pathname && withoutSlash !== '' && existsSync(join(distDir, `${withoutSlash}.html`))) {
            res.writeHead(301, { Location: `${withoutSlash}${search}` }).end()
            return
          }

          const wantsPage = req.headers.accept?.includes('text/html') ?? false
          if (!wantsPage) {
            res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found')
            return
          }
          readFile(join(distDir, '404.html')).then(
            (page) => {
              res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' })
              res.end(req.method === 'HEAD' ? undefined : page)
            },
            (error: unknown) => next(error),
          )
        })
      }
    },
  }
}
