import type { Page } from '@playwright/test'
import { allowNotFoundConsoleOn, allPages, gotoHydrated } from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * First paint does not wait for JavaScript (issue 11):
 * the page's one script, the boot module, requests the app's chunks only once the browser has
 * reported the page's largest paint, so on a slow phone those bytes never compete with the HTML,
 * CSS and font that paint needs. The speed itself is `npm run bench`'s (the LCP ratio against a
 * script-free twin); this is the order of events it rests on, which is deterministic.
 */

/** The page's largest paint, and when its boot module and every other script were requested. */
async function scriptsAroundLargestPaint(page: Page) {
  return page.evaluate(async () => {
    const paints = await new Promise<PerformanceEntryList>((resolve) => {
      new PerformanceObserver((list) => resolve(list.getEntries())).observe({
        type: 'largest-contentful-paint',
        buffered: true,
      })
    })
    const boot = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? ''
    const scripts = performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
    return {
      largestPaint: paints[0]?.startTime ?? Number.NaN,
      bootScript: scripts.filter((entry) => entry.name === boot).map((entry) => entry.startTime),
      appRequests: scripts
        .filter((entry) => entry.name !== boot)
        .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime })),
    }
  })
}

/** The boot module is fetched with the page; everything else only after the largest paint. */
function expectAppAfterLargestPaint({
  largestPaint,
  bootScript,
  appRequests,
}: Awaited<ReturnType<typeof scriptsAroundLargestPaint>>) {
  expect(bootScript).toHaveLength(1)
  expect(largestPaint).toBeGreaterThan(0)
  expect(appRequests.length).toBeGreaterThan(0)
  const early = appRequests.filter((request) => request.startTime <= largestPaint)
  expect(early, `requested before the largest paint at ${largestPaint} ms`).toEqual([])
}

for (const { path } of allPages) {
  test(`${path} paints its largest element before it asks for the app's code`, async ({
    page,
    allowConsoleError,
  }) => {
    allowNotFoundConsoleOn(path, allowConsoleError)
    // React, the router and the page's chunk.
    await gotoHydrated(page, path)
    expectAppAfterLargestPaint(await scriptsAroundLargestPaint(page))
  })
}
