import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test'
import { E2E_API_URL, E2E_UPDATE_PORT } from './ports'

/**
 * Console lines Playwright itself causes, not the site: its note when the config blocks service
 * workers (the default here) and the site registers one.
 */
export const HARNESS_CONSOLE_NOTES: readonly string[] = [
  'warning: Service Worker registration blocked by Playwright',
]

/**
 * The strict harness every browser test runs under: a console error or warning, an uncaught
 * exception, or a request to any origin other than the site and its Supabase API fails the test.
 * A test that expects a console error says so with `allowConsoleError(pattern)`.
 */
type Fixtures = {
  allowedConsole: RegExp[]
  allowConsoleError: (pattern: RegExp) => void
  strictHarness: void
}

export const test = base.extend<Fixtures>({
  allowedConsole: async ({}, use) => {
    await use([])
  },
  allowConsoleError: async ({ allowedConsole }, use) => {
    await use((pattern) => allowedConsole.push(pattern))
  },
  strictHarness: [
    async ({ page, allowedConsole, baseURL }, use, testInfo) => {
      const problems: string[] = []
      const offOrigin: string[] = []
      // Chromium's "Failed to load resource" line does not say which resource: keep the addresses.
      const failedRequests: string[] = []
      const allowedOrigins = new Set([
        new URL(baseURL ?? 'http://127.0.0.1').origin,
        new URL(E2E_API_URL).origin,
        `http://127.0.0.1:${E2E_UPDATE_PORT}`,
      ])
      const report = (text: string) => {
        if (HARNESS_CONSOLE_NOTES.includes(text)) return
        if (!allowedConsole.some((pattern) => pattern.test(text))) problems.push(text)
      }
      const watch = (target: Page) => {
        target.on('console', (message: ConsoleMessage) => {
          if (message.type() === 'error' || message.type() === 'warning') report(`${message.type()}: ${message.text()}`)
        })
        target.on('pageerror', (error) => report(`uncaught: ${error.message}`))
        target.on('request', (request) => {
          const url = new URL(request.url())
          if (url.protocol !== 'http:' && url.protocol !== 'https:') return
          if (!allowedOrigins.has(url.origin)) offOrigin.push(request.url())
        })
        target.on('requestfailed', (request) =>
          failedRequests.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`),
        )
      }
      watch(page)
      page.context().on('page', watch)

      await use()

      if (testInfo.status !== testInfo.expectedStatus && problems.length > 0) {
        // A failing test's console often says why: keep it in the report.
        await testInfo.attach('console problems', { body: problems.join('\n'), contentType: 'text/plain' })
        console.log(`Console problems in "${testInfo.title}":\n  ${problems.join('\n  ')}`)
      }
      if (testInfo.status === testInfo.expectedStatus) {
        if (problems.length > 0 && failedRequests.length > 0)
          problems.push(...failedRequests.map((line) => `(failed request) ${line}`))
        expect(problems, 'unexpected console errors or warnings').toEqual([])
        expect(offOrigin, 'requests to other origins').toEqual([])
      }
    },
    { auto: true },
  ],
})

export { expect }
