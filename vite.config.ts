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
        config: buildConfig(env, siteEnv.submissionKeys ?? null),
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
        },
    preview: { host: '127.0.0.1', port: localPort('site'), strictPort: true },
    appType: 'mpa' as const,
    test: {
      include: ['src/**/*.test.{ts,tsx}', 'supabase/**/*.test.ts', 'tests/*.test.ts'],
      environment: 'node',
    },
  }
})
