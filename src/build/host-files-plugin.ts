import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Plugin } from 'vite'
import {
  HOST_FILES,
  headerRules,
  renderHeadersFile,
  renderNginxHeaders,
  renderNginxSite,
  renderRedirectsFile,
  renderVercelConfig,
  type App,
} from './security-headers.ts'

/**
 * Writes each host's copy of the header rules into the client build: `_headers` (Netlify,
 * Cloudflare Pages), `vercel.json`, and `nginx/` (site.conf and the headers file it includes).
 * Runs after the prerender has written the pages, because the rules name every page address.
 * The staff inbox's build uses it too (`app: 'inbox'`), for its own origin.
 */
export function hostFilesPlugin(
  site: { supabaseUrl: string },
  app: App = 'site',
  appRoutes: readonly string[] = [],
): Plugin {
  let root = process.cwd()
  return {
    name: 'site:host-files',
    apply: (config, { command }) => command === 'build' && !config.build?.ssr,
    configResolved(config) {
      root = config.root
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler(options) {
        const outDir = options.dir ?? resolve(root, 'dist')
        const htmlFiles = (await readdir(outDir)).filter((file) => file.endsWith('.html'))
        const rules = headerRules({ supabaseUrl: site.supabaseUrl, htmlFiles, app, appRoutes })
        const files: Record<string, string> = {
          [HOST_FILES.headers]: renderHeadersFile(rules),
          ...(appRoutes.length > 0 && { [HOST_FILES.redirects]: renderRedirectsFile(rules) }),
          [HOST_FILES.vercel]: renderVercelConfig(rules),
          [HOST_FILES.nginxSite]: renderNginxSite(rules),
          [HOST_FILES.nginxHeaders]: renderNginxHeaders(rules),
        }
        for (const [name, text] of Object.entries(files)) {
          const file = join(outDir, name)
          await mkdir(dirname(file), { recursive: true })
          await writeFile(file, text)
        }
      },
    },
  }
}
