import lighthouse from 'lighthouse'

/**
 * One Lighthouse run (mobile defaults, simulated throttling) against a Chromium already started
 * on `port`: the four category scores, the paint and layout metrics, and the scripts and styles
 * the page loaded from its own origin. Shared by the site's and the inbox's benches.
 */

export type Run = {
  scores: Record<'performance' | 'accessibility' | 'best-practices' | 'seo', number>
  /** The ids of the SEO category's audits that did not pass (e.g. `is-crawlable` on a noindex page). */
  seoFailures: string[]
  fcp: number
  lcp: number
  tbt: number
  cls: number
  assets: { path: string; kind: 'js' | 'css' }[]
}

/**
 * How the slow phone is made: `simulate` (Lighthouse's default: the page loads at full speed and
 * Lantern computes the metrics for a slow 4G phone from its graph of requests and tasks), or
 * `devtools` (the page loads through DevTools' throttled network and CPU, and the metrics are what
 * the trace shows).
 */
export type Throttling = 'simulate' | 'devtools'

/** Lighthouse now and then fails to record a trace on a busy machine (NO_NAVSTART): try again. */
export async function audit(
  url: string,
  port: number,
  { attempts = 3, throttling = 'simulate' }: { attempts?: number; throttling?: Throttling } = {},
): Promise<Run> {
  try {
    return await auditOnce(url, port, throttling)
  } catch (error) {
    if (attempts <= 1) throw error
    console.warn(`${String(error)}; trying again`)
    return audit(url, port, { attempts: attempts - 1, throttling })
  }
}

async function auditOnce(url: string, port: number, throttling: Throttling): Promise<Run> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    throttlingMethod: throttling,
  })
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
  const { lhr } = result
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`)
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN
  const requests =
    (
      lhr.audits['network-requests']?.details as {
        items?: { url: string; resourceType?: string }[]
      }
    )?.items ?? []
  const origin = new URL(url).origin
  const assets = requests
    .filter((request) => request.url.startsWith(origin))
    .flatMap((request): Run['assets'] => {
      const path = new URL(request.url).pathname
      if (request.resourceType === 'Script' || path.endsWith('.js')) return [{ path, kind: 'js' }]
      if (request.resourceType === 'Stylesheet' || path.endsWith('.css'))
        return [{ path, kind: 'css' }]
      return []
    })
    // The service worker's own script and its precache downloads are not the page's.
    .filter((asset) => !/^\/(sw|workbox-[\w-]+)\.js$/.test(asset.path))
  const seoFailures = (lhr.categories.seo?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
    .map((ref) => ref.id)
  return {
    seoFailures,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    assets,
  }
}
