import { test as base, expect, type ConsoleMessage, type Page, type Worker } from '@playwright/test'
import {
  E2E_API_URL,
  E2E_INBOX_LOCALHOST_URL,
  E2E_INBOX_UPDATE_PORT,
  E2E_INBOX_URL,
  E2E_UPDATE_PORT,
} from './ports'

/**
 * Console lines Playwright itself causes, not the site: its note when the config blocks service
 * workers (the default here) and the site registers one.
 */
export const HARNESS_CONSOLE_NOTES: readonly string[] = [
  'warning: Service Worker registration blocked by Playwright',
]

/** What a `securitypolicyviolation` event says, as the harness records it. */
export type CspViolation = { directive: string; blocked: string; sample: string; source: string }

/** A page's CSP violations reach the harness through this binding, from every document of the test. */
const CSP_BINDING = '__reportCspViolation'

/**
 * Chromium's console line for anything the policy blocks: "Refused to load the script …" in older
 * versions, "Executing inline script violates the following Content Security Policy directive …"
 * in current ones.
 */
export const REFUSED = /Refused to |Content Security Policy/

/**
 * The strict harness every browser test runs under: a console error or warning, an uncaught
 * exception, or a request to any origin other than the site and its Supabase API fails the test.
 * A test that expects a console error says so with `allowConsoleError(pattern)`.
 * A Content-Security-Policy violation (the page's `securitypolicyviolation` event, or a "Refused
 * to" line from a page or the service worker) always fails it: nothing may be allowed past the
 * policy the hosts ship. `cspViolations` lists them as they happen, for a test to assert on early.
 */
type Fixtures = {
  allowedConsole: RegExp[]
  allowConsoleError: (pattern: RegExp) => void
  cspViolations: string[]
  strictHarness: void
}

export const test = base.extend<Fixtures>({
  allowedConsole: async ({}, use) => {
    await use([])
  },
  allowConsoleError: async ({ allowedConsole }, use) => {
    await use((pattern) => allowedConsole.push(pattern))
  },
  cspViolations: async ({}, use) => {
    await use([])
  },
  strictHarness: [
    async ({ page, allowedConsole, cspViolations, baseURL }, use, testInfo) => {
      const problems: string[] = []
      const offOrigin: string[] = []
      // Chromium's "Failed to load resource" line does not say which resource: keep the addresses.
      const failedRequests: string[] = []
      const allowedOrigins = new Set([
        new URL(baseURL ?? 'http://127.0.0.1').origin,
        new URL(E2E_API_URL).origin,
        `http://127.0.0.1:${E2E_UPDATE_PORT}`,
        `http://127.0.0.1:${E2E_INBOX_UPDATE_PORT}`,
        E2E_INBOX_URL,
        E2E_INBOX_LOCALHOST_URL,
      ])
      const report = (text: string) => {
        if (HARNESS_CONSOLE_NOTES.includes(text)) return
        if (!allowedConsole.some((pattern) => pattern.test(text))) problems.push(text)
      }
      const watchConsole = (where: string) => (message: ConsoleMessage) => {
        if (REFUSED.test(message.text())) cspViolations.push(`${where} console: ${message.text()}`)
        else if (message.type() === 'error' || message.type() === 'warning')
          report(`${message.type()}: ${message.text()}`)
      }
      const context = page.context()
      // Init scripts run before the page's own and are not subject to its policy.
      await context.exposeBinding(CSP_BINDING, ({ frame }, violation: CspViolation) => {
        cspViolations.push(`${frame.url()}: ${JSON.stringify(violation)}`)
      })
      await context.addInitScript((binding) => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const send = (window as unknown as Record<string, (violation: CspViolation) => void>)[
            binding
          ]
          void send?.({
            directive: event.effectiveDirective,
            blocked: event.blockedURI,
            sample: event.sample,
            source: `${event.sourceFile}:${event.lineNumber}`,
          })
        })
      }, CSP_BINDING)
      const watchWorker = (worker: Worker) => {
        worker.on('console', watchConsole(`service worker ${worker.url()}`))
        // A worker gets no init script and its blocked requests log nothing Playwright sees: listen
        // for its violation events from the moment the harness meets it (the worker may be gone).
        worker
          .evaluate(() =>
            self.addEventListener('securitypolicyviolation', (event) =>
              console.error(
                `Content Security Policy violation: ${event.effectiveDirective} ${event.blockedURI}`,
              ),
            ),
          )
          .catch(() => undefined)
      }
      context.serviceWorkers().forEach(watchWorker)
      context.on('serviceworker', watchWorker)
      const watch = (target: Page) => {
        target.on('console', watchConsole('page'))
        target.on('pageerror', (error) => report(`uncaught: ${error.message}`))
        target.on('request', (request) => {
          const url = new URL(request.url())
          if (url.protocol !== 'http:' && url.protocol !== 'https:') return
          if (!allowedOrigins.has(url.origin)) offOrigin.push(request.url())
        })
        target.on('requestfailed', (request) =>
          failedRequests.push(
            `${request.method()} ${request.url()}: ${request.failure()?.errorText}`,
          ),
        )
      }
      watch(page)
      context.on('page', watch)

      await use()

      if (testInfo.status !== testInfo.expectedStatus && problems.length > 0) {
        // A failing test's console often says why: keep it in the report.
        await testInfo.attach('console problems', {
          body: problems.join('\n'),
          contentType: 'text/plain',
        })
        console.log(`Console problems in "${testInfo.title}":\n  ${problems.join('\n  ')}`)
      }
      if (testInfo.status === testInfo.expectedStatus) {
        if (problems.length > 0 && failedRequests.length > 0)
          problems.push(...failedRequests.map((line) => `(failed request) ${line}`))
        expect(cspViolations, 'Content-Security-Policy violations').toEqual([])
        expect(problems, 'unexpected console errors or warnings').toEqual([])
        expect(offOrigin, 'requests to other origins').toEqual([])
      }
    },
    { auto: true },
  ],
})

export { expect }
