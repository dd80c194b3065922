// A light flat config: typescript-eslint, react-hooks, jsx-a11y, plus the layer
// rule. Run from the project root with `npm run lint`, which passes this file with -c (patterns are
// relative to the root).
import js from '@eslint/js'
import globals from 'globals'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/** Code that runs in Node (and may use its globals): everything but the browser app. */
const nodeFiles = [
  'vite.config.ts',
  '.config/**',
  'src/build/**',
  'src/inbox/vite.config.ts',
  'src/inbox/pwa-options.ts',
  'src/**/*.test.{ts,tsx}',
  'tests/**',
  'supabase/**',
]

/**
 * Layers point down: app → pages → features → components → content, config, lib →
 * shared (what the site, the staff inbox and the Node tools all use: the sealed submission's
 * contract, the database types).
 * Each entry forbids a layer's files to import the layers above it, so an upward import fails the
 * lint (and with it `npm test`).
 */
const layers = [
  { files: ['src/pages/**'], above: ['app'] },
  { files: ['src/features/**'], above: ['app', 'pages'] },
  { files: ['src/components/**'], above: ['app', 'pages', 'features'] },
  {
    files: ['src/content/**', 'src/config/**', 'src/lib/**'],
    above: ['app', 'pages', 'features', 'components'],
  },
  {
    files: ['src/shared/**'],
    above: ['app', 'pages', 'features', 'components', 'content', 'config', 'lib'],
  },
]

/**
 * The staff inbox (src/inbox/) is layered the same way: app → screens → features → components →
 * content, lib.
 */
const inboxLayers = [
  { folders: ['screens'], above: ['app'] },
  { folders: ['features'], above: ['app', 'screens'] },
  { folders: ['components'], above: ['app', 'screens', 'features'] },
  { folders: ['content', 'lib'], above: ['app', 'screens', 'features', 'components'] },
]

const upward = (above) =>
  above.map((layer) => ({
    group: [`**/${layer}/*`, `**/${layer}`],
    message: `Layers point down (app → pages → features → components → content, config, lib → shared): this folder may not import from ${layer}/.`,
  }))

/**
 * Two apps, one repository: a visitor must not download a line of the staff inbox, so
 * nothing of the public site imports from src/inbox/; and the inbox shares with the site only what
 * is one fact for both (src/shared/: the sealed document's contract, the database types), never
 * its pages, features (the outbox) or components. An import leaves src/inbox/ when it climbs more
 * folders than the file is deep inside it, so that rule is written per depth.
 */
const siteLeavesInbox = {
  regex: '(^|/)inbox(/|$)',
  message:
    'Two apps: the public site never imports the staff inbox, so a visitor downloads no line of it.',
}
const inboxLeavesInbox = (depth) => ({
  regex: `^(\\.\\./){${depth + 1},}(?!shared/)`,
  message:
    "Two apps: the staff inbox imports only from src/inbox/ and src/shared/ (the facts both apps share), never the site's pages, features or components.",
})

// ESLint keeps the last matching setting of a rule, not the union: each file gets one entry that
// lists every pattern it is held to.
const restrict = (files, patterns) => ({
  files,
  ignores: ['src/**/*.test.{ts,tsx}'],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
})
const INBOX_DEPTHS = [1, 2, 3]
const importRules = [
  {
    ...restrict(['src/**/*.{ts,tsx}'], [siteLeavesInbox]),
    ignores: ['src/**/*.test.{ts,tsx}', 'src/inbox/**'],
  },
  ...layers.map(({ files, above }) => restrict(files, [...upward(above), siteLeavesInbox])),
  ...INBOX_DEPTHS.map((depth) =>
    restrict([`src/inbox/${'*/'.repeat(depth)}*.{ts,tsx}`], [inboxLeavesInbox(depth)]),
  ),
  ...inboxLayers.flatMap(({ folders, above }) =>
    INBOX_DEPTHS.map((depth) =>
      restrict(
        folders.map((folder) => `src/inbox/${folder}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`),
        [...upward(above), inboxLeavesInbox(depth)],
      ),
    ),
  ),
]

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-inbox',
      'node_modules',
      '**/node_modules',
      'test-results',
      'playwright-report',
      '.local-backend',
      'bench-results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: nodeFiles,
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  ...importRules,
  {
    // Playwright fixtures must destructure `{}` when they need no other fixture.
    files: ['tests/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
)
