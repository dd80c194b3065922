import { readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import react from '@vitejs/plugin-react'
import { build, type Plugin } from 'vite'

type FirstScreenModule = typeof import('../inbox/app/first-screen')

/** Where the inbox's build puts the server bundle that renders its first screen. */
const BUNDLE_DIR = 'node_modules/.cache/inbox-prerender'

/**
 * The staff inbox's first screen, prerendered as the site's pages are (prerender-plugin.ts): the
 * app's first render (the sign-in screen) written into `index.html`'s root at build time, with
 * the agency's title, so it paints before the JavaScript arrives; main.tsx hydrates it once
 * app/boot.ts has seen the paint. No inline script is added: the CSP's `script-src 'self'`
 * holds. It renders in `writeBundle`, before vite-plugin-pwa's `closeBundle`, so the service
 * worker precaches the prerendered page.
 *
 * The render is a small server build of `first-screen.tsx` with the same `define`s, and the
 * Supabase client replaced by a stub that throws if anything touches it (it reads the browser's
 * storage on import, and nothing on the first screen may use it before an effect).
 */
export function inboxPrerenderPlugin(define: Record<string, string>): Plugin {
  let root = process.cwd()
  return {
    name: 'inbox:prerender',
    apply: (config, { command }) => command === 'build' && !config.build?.ssr,
    configResolved(config) {
      root = config.root
    },
    async writeBundle(options) {
      const outDir = options.dir ?? resolve(root, 'dist-inbox')
      const repository = resolve(root, '../..')
      const bundleDir = resolve(repository, BUNDLE_DIR)
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        define,
        resolve: {
          alias: [
            {
              find: /^(\.\.?\/)+lib\/supabase-client(\.ts)?$/,
              replacement: resolve(root, 'lib/supabase-client.prerender.ts'),
            },
          ],
        },
        build: {
          ssr: resolve(root, 'app/first-screen.tsx'),
          outDir: bundleDir,
          emptyOutDir: true,
          rolldownOptions: { output: { entryFileNames: 'first-screen.js' } },
        },
      })
      const module = (await import(
        `${pathToFileURL(join(bundleDir, 'first-screen.js')).href}?t=${Date.now()}`
      )) as FirstScreenModule
      const { html, title } = module.renderFirstScreen()
      const file = join(outDir, 'index.html')
      const template = await readFile(file, 'utf8')
      const empty = '<div id="root"></div>'
      if (!template.includes(empty) || !template.includes('<title>Inbox</title>'))
        throw new Error('src/inbox/index.html lacks <div id="root"></div> or <title>Inbox</title>')
      // The page's one script is the boot module (app/boot.ts), which requests the app once the
      // screen has painted; fetched at low priority, as the site's: never taken for something the
      // paint waits on, by the browser's scheduler or by Lighthouse's model of a slow phone.
      const script = /<script type="module"(?![^>]*fetchpriority)/
      if (!script.test(template)) throw new Error('src/inbox/index.html lacks its module script')
      await writeFile(
        file,
        template
          .replace(script, '<script type="module" fetchpriority="low"')
          .replace('<title>Inbox</title>', `<title>${escapeHtml(title)}</title>`)
          .replace(empty, `<div id="root">${html}</div>`),
      )
      await rm(bundleDir, { recursive: true, force: true })
    },
  }
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
