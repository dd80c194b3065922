import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium'
import {
  E2E_API_PORT,
  E2E_BACKEND_DIR,
  E2E_BUILD_DIR,
  E2E_DB_PORT,
  E2E_INBOX_BUILD_DIR,
  E2E_INBOX_PORT,
  E2E_SITE_PORT,
} from './support/ports'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * Browser tests run in Debian's Chromium (never a downloaded browser) against the built site,
 * served by `vite preview` on 127.0.0.1: the same files a visitor gets. `npm run test:e2e` builds
 * first (with the Supabase address pointing at the stand-in the tests start themselves).
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: '../test-results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    ...devices['Desktop Chrome'],
    baseURL: `http://127.0.0.1:${E2E_SITE_PORT}`,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    serviceWorkers: 'block',
    trace: 'off',
  },
  webServer: [
    {
      command: `vite preview --port ${E2E_SITE_PORT} --strictPort --outDir ${E2E_BUILD_DIR}`,
      cwd: '..',
      url: `http://127.0.0.1:${E2E_SITE_PORT}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The staff inbox, on its own origin, with the headers its build wrote (_headers).
      command: `vite preview --config src/inbox/vite.config.ts --port ${E2E_INBOX_PORT} --strictPort --outDir ${resolve(ROOT, E2E_INBOX_BUILD_DIR)}`,
      cwd: '..',
      url: `http://127.0.0.1:${E2E_INBOX_PORT}/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The local backend, as `npm start` runs it (embedded PGlite, wire port for the tests to read
      // rows), in the folder `npm run build:e2e` emptied and gave the development identity the
      // site seals to.
      command: `tsx supabase/local/main.ts`,
      cwd: '..',
      env: {
        LOCAL_API_PORT: String(E2E_API_PORT),
        LOCAL_DB_PORT: String(E2E_DB_PORT),
        LOCAL_BACKEND_DIR: E2E_BACKEND_DIR,
      },
      // SIGTERM lets it release its folder lock and close the database cleanly.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      url: `http://127.0.0.1:${E2E_API_PORT}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
})
