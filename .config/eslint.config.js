// A light flat config (STYLE.md, Tooling): typescript-eslint, react-hooks, jsx-a11y, plus the layer
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
  'src/**/*.test.{ts,tsx}',
  'tests/**',
  'supabase/**',
]

/**
 * Layers point down (STYLE.md): app → pages → features → components → content, config, lib →
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

const layerRules = layers.map(({ files, above }) => ({
  files,
  ignores: ['src/**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: above.map((layer) => ({
          group: [`**/${layer}/*`, `**/${layer}`],
          message: `Layers point down: this folder may not import from src/${layer}/ (STYLE.md, "Layers point down").`,
        })),
      },
    ],
  },
}))

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
  ...layerRules,
  {
    // Playwright fixtures must destructure `{}` when they need no other fixture.
    files: ['tests/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
)
