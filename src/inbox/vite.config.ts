import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, loadEnv } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { buildConfig, buildManifestPlugin, buildSource } from '../build/build-manifest.ts'
import { hostFilesPlugin } from '../build/host-files-plugin.ts'
import { previewPlugin } from '../build/preview-plugin.ts'
import { resolveSubmissionKeys } from '../build/submission-keys.ts'
import { parseSiteEnv } from '../lib/env.ts'
import { inboxPwaOptions } from './pwa-options.ts'
import type { InboxEnv } from './lib/inbox-env.ts'
import { APP_ROUTES } from './lib/routes.ts'
import { parseTrustedDays } from './lib/trusted-days.ts'
import { localPort, withLocalSupabaseUrl } from '../../supabase/local/ports.ts'

/** The staff inbox's build: the site's VITE_* configuration, its own root, output and origin. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export default defineConfig(async ({ mode, isPreview }) => {
  const env = withLocalSupabaseUrl(loadEnv(mode, ROOT, 'VITE_'))
  const settings = parseSiteEnv(env)
  // The recipients the site's build resolves (the same variables, the same development key):
  // replies are sealed to them too. `vite preview` serves a finished build: none to resolve.
  const keys = isPreview ? null : await resolveSubmissionKeys(env, settings.supabaseUrl, mode)
  const inboxEnv: InboxEnv = {
    agencyName: settings.agencyName,
    supabaseUrl: settings.supabaseUrl,
    supabaseAnonKey: settings.supabaseAnonKey,
    agencyRecipients: keys?.recipients ?? [],
    agencySigningKeys: keys?.signingKeys ?? [],
    trustedSessionDays: parseTrustedDays(env.VITE_INBOX_TRUSTED_DAYS),
  }
  const inboxRoot = fileURLToPath(new URL('.', import.meta.url))
  const define = { __INBOX_ENV__: JSON.stringify(inboxEnv) }
  return {
    root: inboxRoot,
    envDir: ROOT,
    plugins: [
      react(),
      hostFilesPlugin(settings, 'inbox', APP_ROUTES),
      previewPlugin(),
      VitePWA(inboxPwaOptions(settings.agencyName)),
      buildManifestPlugin({
        app: 'inbox',
        ...buildSource(ROOT),
        config: buildConfig(env, keys ?? null),
        keyId: keys?.keyId ?? null,
      }),
    ],
    define,
    build: {
      outDir: `${ROOT}dist-inbox`,
      emptyOutDir: true,
      sourcemap: false,
      rolldownOptions: {
        input: { index: `${inboxRoot}index.html`, notFound: `${inboxRoot}404.html` },
      },
    },
    // The dev server answers the app's routes with the app; `vite preview` answers as the hosts do.
    appType: isPreview ? ('mpa' as const) : ('spa' as const),
    server: { host: '127.0.0.1', port: localPort('inbox'), strictPort: true },
    preview: { host: '127.0.0.1', port: localPort('inbox'), strictPort: true },
  }
})
