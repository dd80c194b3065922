import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, loadEnv } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { hostFilesPlugin } from '../build/host-files-plugin.ts'
import { inboxPrerenderPlugin } from '../build/inbox-prerender-plugin.ts'
import { previewPlugin } from '../build/preview-plugin.ts'
import { resolveSubmissionKeys } from '../build/submission-keys.ts'
import { parseSiteEnv } from '../lib/env.ts'
import { inboxPwaOptions } from './pwa-options.ts'
import type { InboxEnv } from './lib/inbox-env.ts'
import { parseTrustedDays } from './lib/trusted-days.ts'
import { localPort, withLocalSupabaseUrl } from '../../supabase/local/ports.ts'

/**
 * The staff inbox: its own Vite root (src/inbox/), entry, build output (dist-inbox/) and origin
 * (127.0.0.1:4174 locally, or INBOX_PORT), never linked from the public site. It reads the same VITE_* configuration as the site (the
 * repository's .env files) for the Supabase project, the agency's name and the recipients replies
 * are sealed to (as the site's build resolves them, src/build/submission-keys.ts), and its hosts' header
 * files come from the same source as the site's (src/build/security-headers.ts).
 */

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
    trustedSessionDays: parseTrustedDays(env.VITE_INBOX_TRUSTED_DAYS),
  }
  const inboxRoot = fileURLToPath(new URL('.', import.meta.url))
  const define = { __INBOX_ENV__: JSON.stringify(inboxEnv) }
  return {
    root: inboxRoot,
    envDir: ROOT,
    plugins: [
      react(),
      hostFilesPlugin(settings, 'inbox'),
      previewPlugin(),
      inboxPrerenderPlugin(define),
      VitePWA(inboxPwaOptions(settings.agencyName)),
    ],
    define,
    build: {
      outDir: `${ROOT}dist-inbox`,
      emptyOutDir: true,
      sourcemap: false,
      // The page's one script is the boot module (app/boot.ts), which every visit downloads: no
      // `modulepreload` polyfill in it. Browsers without modulepreload (Safari before 17) still load
      // every module, only without the head start.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        input: { index: `${inboxRoot}index.html`, notFound: `${inboxRoot}404.html` },
      },
    },
    appType: 'mpa' as const,
    server: { host: '127.0.0.1', port: localPort('inbox'), strictPort: true },
    preview: { host: '127.0.0.1', port: localPort('inbox'), strictPort: true },
  }
})
