import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Plugin, Rolldown } from 'vite'
import type * as EntryPrerender from '../app/entry-prerender'

type OutputBundle = Rolldown.OutputBundle
type OutputChunk = Rolldown.OutputChunk

/** Where `npm run build` puts the server bundle that renders the pages (first step of the build). */
export const PRERENDER_BUNDLE_DIR = 'node_modules/.cache/prerender'

type PrerenderModule = typeof EntryPrerender

/**
 * Writes every route's full HTML into the client build, plus `404.html`, `sitemap.xml` and
 * `robots.txt`. It runs in `writeBundle`, before vite-plugin-pwa's `closeBundle` scans the output
 * folder, so the service worker precaches the prerendered pages and not the empty template.
 */
export function prerenderPlugin(): Plugin {
  let root = process.cwd()
  return {
    name: 'site:prerender',
    apply: (config, { command }) => command === 'build' && !config.build?.ssr,
    // The page's one script is the boot module, which every visit downloads: no polyfill in it for
    // `modulepreload`. Browsers without it (Safari before 17, Firefox before 115) still load every
    // module, only without the head start.
    config: () => ({ build: { modulePreload: { polyfill: false } } }),
    configResolved(config) {
      root = config.root
    },
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? resolve(root, 'dist')
      const bundlePath = resolve(root, PRERENDER_BUNDLE_DIR, 'entry-prerender.js')
      const prerender = (await import(
        `${pathToFileURL(bundlePath).href}?t=${Date.now()}`
      )) as PrerenderModule
      const template = withLowPriorityBoot(await readFile(join(outDir, 'index.html'), 'utf8'))
      assertPlaceholders(template)

      for (const target of prerender.prerenderTargets) {
        const { appHtml, headHtml } = await prerender.renderPage(target.path)
        const modules = pageModules(bundle, resolve(root, target.pageSource), template)
        const html = template
          .replace('<!--app-head-->', [headHtml, pageModulesMeta(modules)].join('\n    '))
          .replace('<!--app-html-->', appHtml)
        const file = join(outDir, target.file)
        await mkdir(dirname(file), { recursive: true })
        await writeFile(file, html)
      }
      await writeFile(join(outDir, 'sitemap.xml'), prerender.renderSitemap())
      await writeFile(join(outDir, 'robots.txt'), prerender.renderRobots())
    },
  }
}

/**
 * The boot script (`entry-boot-browser.ts`) is tiny and only waits for the first paint, so it is
 * fetched at low priority: it must never be taken for a render-blocking script, by the browser's
 * scheduler or by Lighthouse's model of it.
 */
function withLowPriorityBoot(template: string): string {
  const bootTag = /<script type="module"(?![^>]*fetchpriority)/
  if (!bootTag.test(template)) throw new Error('index.html lacks its module script')
  return template.replace(bootTag, '<script type="module" fetchpriority="low"')
}

function assertPlaceholders(template: string): void {
  for (const placeholder of ['<!--app-head-->', '<!--app-html-->']) {
    if (!template.includes(placeholder))
      throw new Error(`index.html lacks the ${placeholder} placeholder`)
  }
}

/**
 * The page's own chunk and the chunks it imports, except those the template already loads. They
 * are not preloaded from the head: a modulepreload there starts at once and competes with the
 * HTML, CSS and font for a slow phone's first bytes. The boot script (`entry-boot-browser.ts`)
 * preloads them from this list once the page has painted, alongside the app's entry.
 */
function pageModules(bundle: OutputBundle, pageModule: string, template: string): string[] {
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk')
  const pageChunk = chunks.find((chunk) => chunk.facadeModuleId === pageModule)
  if (!pageChunk) throw new Error(`No chunk in the bundle for ${pageModule}`)

  const files = new Set<string>()
  const visit = (fileName: string) => {
    if (files.has(fileName) || template.includes(`/${fileName}"`)) return
    files.add(fileName)
    const chunk = chunks.find((candidate) => candidate.fileName === fileName)
    chunk?.imports.forEach(visit)
  }
  visit(pageChunk.fileName)
  return [...files].map((fileName) => `/${fileName}`)
}

function pageModulesMeta(paths: string[]): string {
  return `<meta name="page-modules" content="${paths.join(' ')}" />`
}
