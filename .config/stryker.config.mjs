// Mutation testing of the submission path (issue 12): `npm run test:mutation`.
// Stryker changes the code below one small edit at a time (a `>=` into `>`, a `true` into `false`,
// a string into "") and re-runs the unit tests that reach it; a change no test notices "survives"
// and marks a behaviour nobody checks. The run fails under 90 % overall (Stryker's own break) and
// tests/mutation/check-file-scores.mjs then fails it if any single file is under 90 %.
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where Stryker writes the report that tests/mutation/check-file-scores.mjs reads. */
export const REPORT_DIR = 'test-results/mutation'

/** The per-file bar of issue 12: every file of the path, not only the average. */
export const FILE_THRESHOLD = 90

/**
 * Surviving mutants no test can kill because the program behaves the same with them (equivalent
 * mutants). Listed here, one reason each, instead of `// Stryker disable` comments in source files
 * the mutation suite does not own. check-file-scores.mjs leaves them out of a file's score, and
 * fails when an entry no longer matches a surviving mutant, so the list cannot go stale.
 * Match on: file, mutator, the original source text and the replacement Stryker shows.
 * @type {{ file: string, mutator: string, original: string, replacement: string, reason: string }[]}
 */
export const EQUIVALENT_MUTANTS = []

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    // The submission path: validate → seal → send or queue → flush later.
    'src/features/contact/contact-schema.ts',
    'src/features/contact/submit-contact.ts',
    'src/features/contact/send-to-supabase.ts',
    'src/features/contact/sealing/seal-submission.ts',
    'src/features/contact/sealing/load-sealer.ts',
    'src/features/contact/sealing/sealing-error.ts',
    'src/features/contact/outbox/outbox-store.ts',
    'src/features/contact/outbox/outbox-flush.ts',
    'src/features/contact/outbox/outbox-lock.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: '.config/vitest.mutation.config.ts', related: true },
  // Per-test coverage: each mutant runs only the tests that reach its line.
  coverageAnalysis: 'perTest',
  // Mutants that do not compile are dropped before any test runs (faster, and no false "killed").
  // The app's tsconfig: the mutated files are browser code; tests are not mutated.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.app.json',
  thresholds: { high: 95, low: FILE_THRESHOLD, break: FILE_THRESHOLD },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { reportTests: false, logTests: false },
  htmlReporter: { fileName: `${REPORT_DIR}/mutation.html` },
  jsonReporter: { fileName: `${REPORT_DIR}/mutation.json` },
  // Stryker works in a copy of the project. Outside the tree, so a half-finished run never leaves
  // a second copy of src/ for ESLint, git or a file watcher to find; one folder per checkout.
  tempDirName: join(
    tmpdir(),
    `stryker-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}`,
  ),
  // Build and test output is not needed in that copy.
  ignorePatterns: [
    '/dist',
    '/test-results',
    '/playwright-report',
    '/bench-results',
    '/.local-backend',
  ],
}
