import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, loadEnv } from 'vite'
import { parseSiteEnv } from '../src/lib/env.ts'
import type { InboxEnv } from './src/inbox-env.ts'

/**
 * The staff inbox: its own entry, build output (dist-inbox/) and origin (127.0.0.1:4174 locally),
 * never linked from the public site. It reads the same VITE_* configuration as the site (the
 * repository's .env files) for the Supabase project and the agency's name.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const INBOX_PORT = 4174

/** The inbox's policy: its own code and styles, its Supabase project, QR codes as data: images. */
export function inboxHeaders(supabaseUrl: string): Record<string, string> {
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(supabaseUrl).origin}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex, nofollow',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
  }
}

export default defineConfig(({ mode }) => {
  const settings = parseSiteEnv({ ...loadEnv(mode, ROOT, 'VITE_') })
  const inboxEnv: InboxEnv = {
    agencyName: settings.agencyName,
    supabaseUrl: settings.supabaseUrl,
    supabaseAnonKey: settings.supabaseAnonKey,
  }
  const headers = inboxHeaders(settings.supabaseUrl)
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    envDir: ROOT,
    plugins: [react()],
    define: { __INBOX_ENV__: JSON.stringify(inboxEnv) },
    build: { outDir: `${ROOT}dist-inbox`, emptyOutDir: true, sourcemap: false },
    server: { host: '127.0.0.1', port: INBOX_PORT, strictPort: true, headers },
    preview: { host: '127.0.0.1', port: INBOX_PORT, strictPort: true, headers },
  }
})
