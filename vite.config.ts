/// <reference types="vitest/config" />
import { defineConfig, loadEnv } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { prerenderPlugin, PRERENDER_BUNDLE_DIR } from './src/build/prerender-plugin.ts'
import { previewPlugin } from './src/build/preview-plugin.ts'
import { pwaOptions } from './src/build/pwa-options.ts'
import { parseSiteEnv } from './src/lib/env.ts'

export default defineConfig(({ isSsrBuild, mode }) => ({
  plugins: [
    react(),
    tailwindcss(),
    prerenderPlugin(),
    previewPlugin(),
    VitePWA(pwaOptions(parseSiteEnv(loadEnv(mode, process.cwd(), 'VITE_')))),
  ],
  define: {
    // The footer's copyright year, fixed at build time so the prerendered HTML and hydration agree.
    __BUILD_YEAR__: JSON.stringify(new Date().getUTCFullYear()),
  },
  build: isSsrBuild
    ? { outDir: PRERENDER_BUNDLE_DIR, emptyOutDir: true, copyPublicDir: false }
    : { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  appType: 'mpa',
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'supabase/**/*.test.ts'],
    environment: 'node',
  },
}))
