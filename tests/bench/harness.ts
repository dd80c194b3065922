import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, expect, type Browser, type Page } from '@playwright/test'
import { build, preview, type PreviewServer } from 'vite'
import { copy } from '../../src/inbox/content/copy'
import { totpCode } from '../../supabase/local/auth/totp'
import { startLocalBackend, type LocalBackend } from '../../supabase/local/local-backend'
import { runStaff } from '../../supabase/staff/staff-command'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium'
import {
  enterCode,
  importKey,
  setupKey,
  signIn,
  STAFF_PASSWORD,
  unlock,
} from '../support/staff-inbox'

/**
 * What every bench that runs against a backend and a build of its own shares: the throwaway
 * backend, the build served by `vite preview`, the browser, the staff member signed in with the
 * development identity, the in-page clock, and the results file.
 */

/** Chromium's CPU throttling in every timed bench: a mid-range phone. */
export const CPU_SLOWDOWN = 4

/** How many times a bench repeats what it times: BENCH_RUNS, else `runs`. */
export const benchRuns = (runs: number) => Number(process.env.BENCH_RUNS ?? runs)

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

/** A port moved by E2E_PORT_OFFSET, as the browser tests' ports are (tests/support/ports.ts). */
const offsetPort = (port: number) => port + Number(process.env.E2E_PORT_OFFSET ?? 0)

export type BenchBackend = { backend: LocalBackend; work: string; backendDir: string }

type Ports<Served extends string> = { api: number } & Record<Served, number>

/** A local backend in a throwaway folder for the time of `use`; both are gone afterwards. */
async function withLocalBackend<T>(
  name: string,
  apiPort: number,
  use: (bench: BenchBackend) => Promise<T>,
): Promise<T> {
  const work = await mkdtemp(join(tmpdir(), `bench-${name}-`))
  const backendDir = join(work, 'backend')
  const backend = await startLocalBackend({
    apiPort: offsetPort(apiPort),
    dbPort: null,
    backendDir,
  })
  try {
    return await use({ backend, work, backendDir })
  } finally {
    await backend.close()
    await rm(work, { recursive: true, force: true })
  }
}

async function serving<T>(server: PreviewServer, use: () => Promise<T>): Promise<T> {
  try {
    return await use()
  } finally {
    await new Promise<void>((done) => server.httpServer.close(() => done()))
  }
}

/**
 * A local backend, filled by `seed`, the site (its prerender too) built against it with `env` and
 * served on `sitePort`, and Chromium, for the time of `use`.
 */
export function withSiteBench<T>(
  name: string,
  ports: Ports<'site'>,
  seed: (bench: BenchBackend) => Promise<Record<string, string>>,
  use: (bench: BenchBackend & { browser: Browser; port: number }) => Promise<T>,
): Promise<T> {
  return withLocalBackend(name, ports.api, async (bench) => {
    const env = {
      ...process.env,
      VITE_SUPABASE_URL: bench.backend.url,
      LOCAL_BACKEND_DIR: bench.backendDir,
      ...(await seed(bench)),
    }
    const outDir = join(bench.work, 'dist')
    const vite = (...args: string[]) =>
      execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', ...args], {
        env,
        stdio: 'inherit',
      })
    vite('--ssr', 'src/app/entry-prerender.tsx')
    vite('--outDir', outDir)
    const server = await preview({
      build: { outDir },
      preview: { host: '127.0.0.1', port: offsetPort(ports.site), strictPort: true },
      logLevel: 'warn',
    })
    const port = offsetPort(ports.site)
    return serving(server, () => withChromium((browser) => use({ ...bench, browser, port })))
  })
}

/** Debian's Chromium for the time of `use`. */
async function withChromium<T>(use: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    return await use(browser)
  } finally {
    await browser.close()
  }
}

export type InboxBench = BenchBackend & { browser: Browser; outDir: string; port: number }

/**
 * A local backend, filled by `seed`, the inbox built against it and served on `inboxPort`, and
 * Chromium, for the time of `use`.
 */
export function withInboxBench<T>(
  name: string,
  ports: Ports<'inbox'>,
  seed: (bench: BenchBackend) => Promise<void>,
  use: (bench: InboxBench) => Promise<T>,
): Promise<T> {
  return withLocalBackend(name, ports.api, async (bench) => {
    await seed(bench)
    const outDir = join(bench.work, 'dist-inbox')
    process.env.VITE_SUPABASE_URL = bench.backend.url
    const configFile = resolve('src/inbox/vite.config.ts')
    await build({ configFile, build: { outDir }, logLevel: 'warn' })
    const server = await preview({
      configFile,
      build: { outDir },
      preview: { host: '127.0.0.1', port: offsetPort(ports.inbox), strictPort: true },
      logLevel: 'warn',
    })
    const port = offsetPort(ports.inbox)
    return serving(server, () =>
      withChromium((browser) => use({ ...bench, browser, outDir, port })),
    )
  })
}

/**
 * A new staff member on `backend`, signed in on `page` (at the inbox's first screen), enrolled,
 * with the development identity imported (to a passkey too with `passkey`); waits until all
 * `rows` inquiries are listed. `trusted` ticks "Keep me signed in on this device".
 */
export async function signInWithDevIdentity(
  page: Page,
  { backend, backendDir }: BenchBackend,
  options: { rows: number; timeout: number; trusted?: boolean; passkey?: boolean },
): Promise<void> {
  const email = `bench-${randomUUID().slice(0, 8)}@example.com`
  await runStaff(['add', email, '--password', STAFF_PASSWORD], {
    env: { SUPABASE_URL: backend.url, SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey },
    output: { out: () => {}, err: () => {} },
  })
  if (options.trusted) await page.getByLabel(copy.signIn.keepSignedIn).check()
  await signIn(page, email)
  await enterCode(page, totpCode(await setupKey(page)))
  await importKey(
    page,
    { secret: await readFile(join(backendDir, 'dev-identity.txt'), 'utf8') },
    { passkey: options.passkey },
  )
  await expect(page.getByTestId('list-count')).toHaveText(
    copy.list.matching(options.rows, options.rows),
    { timeout: options.timeout },
  )
}

type Task = { start: number; duration: number }

/**
 * Starts recording, in the page, every task over 50 ms (a PerformanceObserver of 'longtask'
 * entries); returns what reads them back.
 */
export async function recordLongTasks(page: Page): Promise<() => Promise<Task[]>> {
  await page.evaluate(() => {
    const tasks: { start: number; duration: number }[] = []
    Object.assign(window, { benchTasks: tasks })
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        tasks.push({ start: entry.startTime, duration: entry.duration })
    }).observe({ type: 'longtask' })
  })
  return () => page.evaluate(() => (window as unknown as { benchTasks: Task[] }).benchTasks)
}

/**
 * Unlocks with the passphrase, marking in the page the Unlock form's submit, the list's heading
 * (`open`), its first row (`first`) and every one of `rows` opened (`all`: the count under the
 * search says so; the list shows 50 at a time), waiting at most `timeout` ms for the last.
 */
export async function timeUnlock(
  page: Page,
  rows: number,
  timeout: number,
): Promise<Record<'submit' | 'open' | 'first' | 'all', number>> {
  await page.evaluate(
    ({ heading, allOpen }) => {
      const times: Record<string, number> = {}
      ;(window as unknown as { benchTimes: Record<string, number> }).benchTimes = times
      document.addEventListener('submit', () => (times.submit ??= performance.now()), true)
      new MutationObserver(() => {
        const h1 = [...document.querySelectorAll('h1')].some((h) => h.textContent === heading)
        if (h1) times.open ??= performance.now()
        if (document.querySelector('ul.inquiries > li')) times.first ??= performance.now()
        if (document.querySelector('[data-testid="list-count"]')?.textContent === allOpen)
          times.all ??= performance.now()
      }).observe(document.body, { childList: true, subtree: true, characterData: true })
    },
    { heading: copy.list.heading, allOpen: copy.list.matching(rows, rows) },
  )
  await unlock(page)
  const {
    submit = NaN,
    open = NaN,
    first = NaN,
    all = NaN,
  } = await benchTimesAfter(page, 'all', timeout)
  return { submit, open, first, all }
}

/**
 * The marks a bench's own observer writes into `window.benchTimes`, once `mark` is among them
 * (at most `timeout` ms later).
 */
export async function benchTimesAfter(
  page: Page,
  mark: string,
  timeout: number,
): Promise<Record<string, number>> {
  await page.waitForFunction(
    (name) => (window as unknown as { benchTimes: Record<string, number> }).benchTimes[name],
    mark,
    { timeout },
  )
  return page.evaluate(
    () => (window as unknown as { benchTimes: Record<string, number> }).benchTimes,
  )
}

/** Writes bench-results/`name`.json. */
export async function writeResults(name: string, results: unknown): Promise<void> {
  await mkdir('bench-results', { recursive: true })
  await writeFile(`bench-results/${name}.json`, `${JSON.stringify(results, null, 2)}\n`)
}

/** Prints the targets `what` missed, or that it met them all; a miss makes the exit code 1. */
export function reportMisses(what: string, misses: string[]): void {
  if (misses.length) {
    console.log(`${what} targets missed:\n  ${misses.join('\n  ')}`)
    process.exitCode = 1
  } else console.log(`${what} targets met.`)
}
