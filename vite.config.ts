/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import { defineConfig, loadEnv } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { buildConfig, buildManifestPlugin, buildSource } from './src/build/build-manifest.ts'
import { hostFilesPlugin } from './src/build/host-files-plugin.ts'
import { prerenderPlugin, PRERENDER_BUNDLE_DIR } from './src/build/prerender-plugin.ts'
import { previewPlugin } from './src/build/preview-plugin.ts'
import { pwaOptions } from './src/build/pwa-options.ts'
import { resolveSubmissionKeys } from './src/build/submission-keys.ts'
import { parseSiteEnv, type SiteEnv } from './src/lib/env.ts'
import { localPort, withLocalSupabaseUrl } from './supabase/local/ports.ts'

/**
 * React, the router and the few modules every page shares with the app's entry, in one chunk. The
 * entry is imported by the boot module (so first paint does not wait for it); without this group
 * the bundler gives each module the entry shares with the pages a chunk of its own: five small
 * files instead of one, each compressed on its own (about 0.3 KB gzip more on every page). The
 * toasts' region and the outbox's definitions are such modules too (the conversation's code made
 * the bundler split them out: about 0.2 KB gzip more on every page).
 */
const frameworkChunk = {
  name: 'framework',
  test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]|src[\\/]lib[\\/]env\.ts|src[\\/]components[\\/]toast[\\/]toast-(store|region)\.ts|src[\\/]features[\\/]contact[\\/]outbox[\\/]outbox-definitions\.ts/,
}

/**
 * zod and the inquiry's fields (their schema and limits), in one chunk: the contact page needs them
 * up front, and the conversation's lazy code (sealing, /replies after "Open") needs the limits too.
 * Without this group the bundler gives the fields a chunk of their own, one more file the contact
 * page fetches.
 */
const schemaChunk = {
  name: 'zod',
  test: /node_modules[\\/]zod[\\/]|src[\\/]shared[\\/]zod\.ts|src[\\/]shared[\\/]submission[\\/]fields\.ts/,
}

export default defineConfig(async ({ isSsrBuild, isPreview, mode }) => {
  const env = withLocalSupabaseUrl(loadEnv(mode, process.cwd(), 'VITE_'))
  const settings = parseSiteEnv(env)
  const siteEnv: SiteEnv = {
    ...settings,
    // `vite preview` serves a finished build: no keys to resolve (and none to create).
    submissionKeys: isPreview ? null : await resolveSubmissionKeys(env, settings.supabaseUrl, mode),
  }
  const source = buildSource(process.cwd())
  const define = {
    // The footer's copyright year, fixed at build time so the prerendered HTML and hydration agree,
    // and taken from the build's clock (the commit's time), so a rebuild next year is the same.
    __BUILD_YEAR__: JSON.stringify(new Date(source.sourceDateEpoch * 1000).getUTCFullYear()),
    // The configuration as checked here (src/lib/env.ts): the pages get values, not validators.
    // The recipients and key_id in it were resolved above (possibly the development key).
    __SITE_ENV__: JSON.stringify(siteEnv),
    // `npm run bench`'s own build slows the hashing worker as DevTools slows the page
    // (src/shared/files/sha256-in-worker-browser.ts); false in every other build.
    __BENCH_HOOKS__: JSON.stringify(env.VITE_BENCH_HOOKS === 'true'),
  }
  return {
    plugins: [
      react(),
      tailwindcss(),
      prerenderPlugin(),
      hostFilesPlugin(siteEnv),
      previewPlugin(),
      VitePWA(pwaOptions(siteEnv)),
      buildManifestPlugin({
        app: 'site',
        ...source,
        config: buildConfig(env, siteEnv.submissionKeys?.recipients ?? []),
        keyId: siteEnv.submissionKeys?.keyId ?? null,
      }),
    ],
    define,
    resolve: {
      // workbox-window's package points bundlers at its ES5 build (2.3 KB gzip, transpiled for
      // browsers this site does not run in); its modern build is the same code at 1.4 KB, on every
      // page (the service worker's registration).
      alias: [
        {
          find: /^workbox-window$/,
          replacement: fileURLToPath(
            new URL('node_modules/workbox-window/build/workbox-window.prod.mjs', import.meta.url),
          ),
        },
      ],
    },
    build: isSsrBuild
      ? { outDir: PRERENDER_BUNDLE_DIR, emptyOutDir: true, copyPublicDir: false }
      : {
          outDir: 'dist',
          emptyOutDir: true,
          sourcemap: false,
          rolldownOptions: {
            output: {
              codeSplitting: { groups: [frameworkChunk, schemaChunk] },
            },
          },
        },
    preview: { host: '127.0.0.1', port: localPort('site'), strictPort: true },
    appType: 'mpa' as const,
    test: {
      include: ['src/**/*.test.{ts,tsx}', 'supabase/**/*.test.ts', 'tests/*.test.ts'],
      environment: 'node',
    },
  }
})
