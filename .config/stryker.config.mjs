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
 * Mutants no test can kill because the program behaves the same with them (equivalent mutants),
 * one reason each. Listed here rather than as `// Stryker disable` comments in source files the
 * mutation suite does not own. tests/mutation/check-file-scores.mjs leaves them out of a file's
 * score and fails when an entry matches no surviving mutant (killed now, or the code moved) or
 * more than one mutant (too vague), so the list cannot go stale or hide a real gap.
 * An entry names the file, the trimmed source line where the mutant starts, the mutator and
 * Stryker's replacement; `original` (the replaced text) only where the line alone is ambiguous.
 * @type {{ file: string, line: string, mutator: string, replacement: string, original?: string, reason: string }[]}
 */
export const EQUIVALENT_MUTANTS = [
  {
    file: 'src/features/outbox/send-queued.ts',
    line: "if (status === 0 || status < 300) return outcome('no-answer', 'noAnswer')",
    original: 'status === 0',
    mutator: 'ConditionalExpression',
    replacement: 'false',
    reason:
      '0 < 300 already: `status === 0` names the fetch-failed case for the reader, the next test covers it.',
  },
  {
    file: 'src/features/outbox/outbox-flush.ts',
    line: "const detail = `stored record failed validation: ${valid.error.issues.map((issue) => issue.path.join('.')).join(', ')}`",
    original: "'.'",
    mutator: 'StringLiteral',
    replacement: '""',
    reason:
      'The record schema is flat: every issue path has one segment, so the separator never shows.',
  },
  {
    file: 'src/features/outbox/outbox-definitions.ts',
    line: "return new Set((await indexedDB.databases()).map((database) => database.name ?? ''))",
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    reason:
      "Browsers always set IDBDatabaseInfo.name; `?? ''` only satisfies the DOM type, where it is optional.",
  },
  {
    file: 'src/features/contact/sealing/seal-submission.ts',
    line: "if (typeof recipient !== 'string' || !/^age1[0-9a-z]{58}$/.test(recipient)) return false",
    mutator: 'Regex',
    replacement: '/age1[0-9a-z]{58}$/',
    reason:
      "age's parser, run on the next line, refuses anything before 'age1' (and '1' never occurs in bech32 data).",
  },
  {
    file: 'src/features/contact/sealing/seal-submission.ts',
    line: 'const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((length * 3) / 4) + 3))',
    mutator: 'ArithmeticOperator',
    replacement: 'length * 3 * 4',
    reason:
      'Only draws more random bytes than needed: the filler is cut to `length` characters either way.',
  },
  ...[
    ['Regex', '/=+/'],
    ['Regex', '/=$/'],
    ['StringLiteral', '"Stryker was here!"'],
  ].map(([mutator, replacement]) => ({
    file: 'src/features/contact/sealing/seal-submission.ts',
    line: "return base64.replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '').slice(0, length)",
    mutator,
    replacement,
    reason:
      "base64 '=' padding only ends the string, beyond the `length` characters kept (at least 4 more are drawn).",
  })),
  {
    file: 'src/features/contact/sealing/seal-submission.ts',
    line: '} catch (cause) {',
    original: "{\n    throw new SealingError('invalid-recipient', { cause })\n  }",
    mutator: 'BlockStatement',
    replacement: '{}',
    reason:
      "Unreachable: recipientSet() has already put each recipient through age's addRecipient.",
  },
  {
    file: 'src/features/contact/sealing/seal-submission.ts',
    line: "throw new SealingError('invalid-recipient', { cause })",
    mutator: 'ObjectLiteral',
    replacement: '{}',
    reason:
      "Unreachable, as above: recipientSet() has already put each recipient through age's addRecipient.",
  },
  {
    file: 'src/shared/submission/sealed-row.ts',
    line: "if (typeof text !== 'string' || text.length > SEALED_MAX_CHARS) return false",
    mutator: 'EqualityOperator',
    replacement: 'text.length >= SEALED_MAX_CHARS',
    reason:
      'No well-formed armor is exactly 51,200 characters long (lengths step by 4 or 5 around it: 51,199, then 51,203), so `>` and `>=` agree on every armor; sealed-row.test.ts checks both neighbours.',
  },
  ...[
    "id: '',",
    "name: '',",
    "contact: '',",
    "message: '',",
    "user_agent: '',",
    "submitted_at: '',",
  ].map((line) => ({
    file: 'src/features/contact/sealing/seal-submission.ts',
    line,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    reason:
      "preload's throwaway document is sealed to a key nobody holds and discarded; any short text pads to the same 1 KiB.",
  })),
]

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    // The submission path: validate → seal → send or queue → flush later, and the sealed
    // submission's contract it writes.
    'src/shared/submission/fields.ts',
    'src/shared/submission/sealed-document.ts',
    'src/shared/submission/sealed-row.ts',
    'src/features/contact/submit-contact.ts',
    'src/features/outbox/send-queued.ts',
    'src/features/contact/sealing/seal-submission.ts',
    'src/features/contact/sealing/load-sealer.ts',
    'src/features/contact/sealing/sealing-error.ts',
    'src/features/outbox/outbox-definitions.ts',
    'src/features/outbox/outbox-store.ts',
    'src/features/outbox/outbox-flush.ts',
    'src/features/outbox/outbox-lock.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: '.config/vitest.mutation.config.ts', related: true },
  // Per-test coverage: each mutant runs only the tests that reach its line.
  coverageAnalysis: 'perTest',
  // Mutants that do not compile are dropped before any test runs (faster, and no false "killed").
  // The app's tsconfig: the mutated files are browser code; tests are not mutated.
  checkers: ['typescript'],
  tsconfigFile: 'src/tsconfig.json',
  thresholds: { high: 95, low: FILE_THRESHOLD, break: FILE_THRESHOLD },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { reportTests: false, logTests: false },
  htmlReporter: { fileName: `${REPORT_DIR}/mutation.html` },
  jsonReporter: { fileName: `${REPORT_DIR}/mutation.json` },
  // Only read with `--incremental` (re-tests just what changed since the last run, for local work).
  incrementalFile: 'node_modules/.cache/stryker/incremental.json',
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
