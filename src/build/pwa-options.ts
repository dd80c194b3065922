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
  maskable: { sizes: [512], padding: 0.32, resizeOptions: { background: BACKGROUND } },
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
 * The PWA: a web app manifest, and the service worker compiled from src/sw.ts, into which the
 * build injects the list of every prerendered page and asset to precache.
 */
export function pwaOptions(site: SiteEnv): Partial<VitePWAOptions> {
  return {
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    // Updates wait for the visitor's "Reload" (src/sw.ts); registration is imported by the client
    // entry once the page has loaded, never prerendered.
    registerType: 'prompt',
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
    injectManifest: {
      // Every page, script, style, font and icon: the whole site opens offline after one visit.
      globPatterns: ['**/*.{html,js,css,woff2,svg,png,ico}'],
      // Hashed file names already change with their content.
      dontCacheBustURLsMatching: /^assets\//,
    },
  }
}
