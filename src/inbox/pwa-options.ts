import type { VitePWAOptions } from 'vite-plugin-pwa'
import { BACKGROUND, PWA_ASSETS } from '../build/pwa-options.ts'
import { APP_ROUTES } from './lib/routes.ts'

/**
 * The inbox as an installable app ("<agency> Inbox"): a manifest, and a service worker that
 * precaches the app shell only, so it opens offline. Nothing from Supabase is cached by it (no
 * runtime caching): rows and sessions never reach Cache Storage.
 */
export function inboxPwaOptions(agencyName: string): Partial<VitePWAOptions> {
  return {
    // A new version waits until staff press "Update" (src/THREAT-MODEL.md, "Inbox updates"): code
    // that could read the key never switches by itself.
    registerType: 'prompt',
    injectRegister: false,
    pwaAssets: PWA_ASSETS,
    manifest: {
      id: '/',
      name: `${agencyName} Inbox`,
      short_name: 'Inbox',
      description: `Sealed inquiries to ${agencyName}, opened on this device only.`,
      lang: 'en',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      theme_color: BACKGROUND,
      background_color: BACKGROUND,
    },
    workbox: {
      globPatterns: ['**/*.{html,js,css,woff2,svg,png,ico}'],
      navigateFallback: '/index.html',
      // The app's own addresses only: any other stays the server's to answer (a 404).
      navigateFallbackAllowlist: [
        /^\/$/,
        ...APP_ROUTES.map((route) => new RegExp(`^${route.slice(0, -1)}`)),
      ],
      clientsClaim: true,
      // Taken on "Update" only, by the SKIP_WAITING message workbox's worker listens for.
      skipWaiting: false,
      cleanupOutdatedCaches: true,
      dontCacheBustURLsMatching: /^assets\//,
      runtimeCaching: [],
    },
  }
}
