// The Vitest config Stryker runs (`npm run test:mutation`, .config/stryker.config.mjs). It holds only
// the submission path's unit tests (the contact feature and the sealed submission's contract) and none of the site's build plugins (PWA, prerender, Tailwind):
// Stryker starts it once per worker and re-runs the related tests for every mutant, so every
// plugin and every unrelated test file would be paid for hundreds of times.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // This file lives in .config/, the project (or Stryker's copy of it) is one level up.
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['src/features/contact/**/*.test.{ts,tsx}', 'src/shared/submission/*.test.ts'],
    environment: 'node',
  },
})
