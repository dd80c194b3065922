import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * The backend suites on their own: migrations vs the zod schema, the local stand-in's contract
 * against PGlite and PostgreSQL 15, and its parts. Independent of the app's Vite config (jsdom,
 * React plugins) so it runs the same wherever the app's test setup goes.
 * Run: vitest run --config tests/db/vitest.config.ts
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['supabase/**/*.test.ts'],
    environment: 'node',
    // Each embedded database boots a WebAssembly PostgreSQL: seconds on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
