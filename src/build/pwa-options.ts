import type { Preset } from '@vite-pwa/assets-generator/config'
import type { VitePWAOptions } from 'vite-plugin-pwa'
import type { SiteEnv } from '../lib/env'

export const BACKGROUND = '#07080c'

/**
 * Icons are generated at build time from one source image (`public/favicon.svg`): 64/192/512
 * "any" icons, a 512 maskable icon and the Apple touch icon, padded on the site's own background
 * so launchers that crop to a circle keep the whole mark.
 */
const iconPreset: Preset = {
  transparent: { sizes: [64, 192, 512], favicons: [[48, 'favicon.ico']] },
  maskable: { sizes: [512], padding: 0.3, resizeOptions: { background: BACKGROUND } },
  apple: { sizes: [180], padding: 0.3, resizeOptions: { background: BACKGROUND } },
}

/** The icons from the site's mark (the inbox's `public/favicon.svg` links to the site's). */
export const PWA_ASSETS = {
  image: 'public/favicon.svg',
  preset: iconPreset,
  overrideManifestIcons: true,
  includeHtmlHeadLinks: true,
}

/**
 * The PWA: a web app manifest, and a generated service worker that precaches every prerendered
 * page and the assets they need, and imports the outbox's Background Sync handler (`importScripts`,
 * the bundled file's address). See the README, "Decisions".
 */
export function pwaOptions(site: SiteEnv, importScripts: string[] = []): Partial<VitePWAOptions> {
  return {
    // Updates wait for the visitor's "Reload": an automatic switch could reload a page while its
    // form holds a half-typed brief.
    registerType: 'prompt',
    // Registration is imported by the client entry after the page has loaded (never prerendered).
    injectRegister: false,
    pwaAssets: PWA_ASSETS,
    manifest: {
      id: '/',
      name: site.agencyName,
      short_name: site.agencyName.split(' ')[0] ?? site.agencyName,
      description: `${site.agencyName}: discreet growth for crypto, Web3 and high-risk brands. Secure contact, even offline.`,
      lang: 'en',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'any',
      theme_color: BACKGROUND,
      background_color: BACKGROUND,
      categories: ['business', 'productivity'],
    },
    workbox: {
      // Every page, script, style, font and icon: the whole site opens offline after one visit.
      globPatterns: ['**/*.{html,js,css,woff2,svg,png,ico}'],
      // Not the Background Sync handler: the worker's importScripts fetches and keeps it already.
      globIgnores: ['**/outbox-sync-*.js'],
      // `/services` is answered by the precached `services.html` (Workbox's cleanURLs); any address
      // that is not a page gets the 404 page, as the server would answer.
      navigateFallback: '/404.html',
      // Not pages: files the precache leaves to the network, and `/page/` addresses, which the
      // server redirects to `/page` (answering them with the 404 page would be wrong).
      navigateFallbackDenylist: [/^\/.+\/$/, /\.(xml|txt|webmanifest)$/],
      // The first install takes control of the open page at once, so the visit that installed it
      // already works offline. Later versions still wait for the visitor's "Reload".
      clientsClaim: true,
      skipWaiting: false,
      cleanupOutdatedCaches: true,
      // Hashed file names already change with their content.
      dontCacheBustURLsMatching: /^assets\//,
      // No runtime caching at all: Supabase (another origin) always goes to the network.
      runtimeCaching: [],
      // The outbox's Background Sync handler (sync-worker-plugin.ts): sends queued sealed messages
      // on 'sync', with no tab open, where the browser has Background Sync (Chromium).
      importScripts,
    },
  }
}
