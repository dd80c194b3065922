/**
 * `npm run bench`, the passkey's part (issue 25): against a local backend of its own holding 200
 * sealed inquiries (10 days at 20 a day) and a build of the inbox pointed at it, in Chromium with
 * a virtual authenticator (PRF), the CPU slowed 4x, a staff member signed in with "Keep me signed
 * in on this device" and a passkey copy of the key:
 *
 * - the passkey unlock: from "Unlock with passkey" to the list's heading, median of 5 reloads, at
 *   most 0.5 s;
 * - the alert's link: a new page load at `/inquiries/<reference>` of the newest inquiry (the one an
 *   alert announces), "Unlock with passkey", and from the unlock (the unlock screen giving way,
 *   the render right after the key's age file is opened) to that inquiry's own view (its heading
 *   with the visitor's name, and its reference) in the page, median of 5, at most 1.5 s; the time
 *   from the click is reported beside it.
 *
 * The virtual authenticator answers at once, so the times are the inbox's own (the WebAuthn call,
 * the age file opened with the PRF output, the rows fetched and opened), not a person's touch. It
 * belongs to one tab (see tests/e2e/staff-trusted-device.spec.ts), so the "new page" is a new
 * document in the tab that made the passkey, its sessionStorage cleared first: what a new tab of a
 * trusted device has (the session in localStorage, the key in IndexedDB, nothing in memory).
 *
 * Writes bench-results/passkey.json; exits 1 if a target is missed.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { randomUUID } from 'node:crypto'
import { chromium, expect, type Page } from '@playwright/test'
import { build, preview } from 'vite'
import { copy } from '../../src/inbox/content/copy'
import { totpCode } from '../../supabase/local/auth/totp'
import { startLocalBackend } from '../../supabase/local/local-backend'
import { runStaff } from '../../supabase/staff/staff-command'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium'
import { enterCode, importKey, setupKey, STAFF_PASSWORD } from '../support/staff-inbox'
import { addPrfAuthenticator } from '../support/passkeys'
import { inboxLink } from '../../supabase/functions/_shared/staff-alert-contract'
import { referenceOf } from '../../src/shared/conversation/reference'
import { median } from './lighthouse-audit'
import { seedInquiries } from './seed-inquiries'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const CPU_SLOWDOWN = 4
// E2E_PORT_OFFSET moves the ports as it moves the browser tests' (tests/support/ports.ts).
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0)
const API_PORT = 54363 + OFFSET
const INBOX_PORT = 4197 + OFFSET
const TARGET_MS = 500
const ALERT_TARGET_MS = 1500
const ROWS = 200

/** One passkey unlock, timed in the page: the button's click to the list's heading. */
async function timePasskeyUnlock(page: Page): Promise<number> {
  await page.evaluate((heading) => {
    const times: Record<string, number> = {}
    ;(window as unknown as { benchTimes: Record<string, number> }).benchTimes = times
    document.addEventListener('click', () => (times.click ??= performance.now()), true)
    new MutationObserver(() => {
      if ([...document.querySelectorAll('h1')].some((h) => h.textContent === heading))
        times.open ??= performance.now()
    }).observe(document.body, { childList: true, subtree: true })
  }, copy.list.heading)
  await page.getByRole('button', { name: copy.key.passkeyUnlock }).click()
  await page.waitForFunction(
    () => (window as unknown as { benchTimes: Record<string, number> }).benchTimes.open,
    undefined,
    { timeout: 30_000 },
  )
  const times = await page.evaluate(
    () => (window as unknown as { benchTimes: Record<string, number> }).benchTimes,
  )
  return Math.round((times.open ?? NaN) - (times.click ?? NaN))
}

type AlertRun = {
  /** From the unlock screen giving way (the key open) to the inquiry's view. */
  unlockToInquiryMs: number
  /** From the click on "Unlock with passkey" to the inquiry's view. */
  clickToInquiryMs: number
  /** From the click to the unlock screen giving way: the passkey unlock itself. */
  clickToUnlockMs: number
  /** Tasks over 50 ms between the unlock and the inquiry: [start after the unlock, duration]. */
  longTasks: [number, number][]
  /** Requests (the backend, scripts) started after the click: [path, start after it, duration]. */
  requests: [string, number, number][]
}

/**
 * One alert link, timed in the page: the click on "Unlock with passkey", the unlock screen's
 * heading gone (the key opened, the next screen rendered), and the inquiry's heading with `name`
 * beside its reference (`Ref. 1a2b3c4d`) in the page.
 */
async function timeAlertLink(page: Page, name: string, reference: string): Promise<AlertRun> {
  await page.evaluate(
    ({ name, reference }) => {
      const times: Record<string, number> = {}
      const tasks: { start: number; duration: number }[] = []
      Object.assign(window, { benchTimes: times, benchTasks: tasks })
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          tasks.push({ start: entry.startTime, duration: entry.duration })
      }).observe({ type: 'longtask' })
      document.addEventListener('click', () => (times.click ??= performance.now()), true)
      new MutationObserver(() => {
        if (times.click === undefined) return
        if (!document.getElementById('unlock-heading')) times.unlocked ??= performance.now()
        const heading = document.getElementById('inquiry-heading')
        if (heading?.textContent === name && document.body.textContent?.includes(reference))
          times.inquiry ??= performance.now()
      }).observe(document.body, { childList: true, subtree: true, characterData: true })
    },
    { name, reference },
  )
  await page.getByRole('button', { name: copy.key.passkeyUnlock }).click()
  await page.waitForFunction(
    () => (window as unknown as { benchTimes: Record<string, number> }).benchTimes.inquiry,
    undefined,
    { timeout: 60_000 },
  )
  const { times, tasks, requests } = await page.evaluate(() => {
    const w = window as unknown as {
      benchTimes: Record<string, number>
      benchTasks: { start: number; duration: number }[]
    }
    const requests = performance
      .getEntriesByType('resource')
      .filter((entry) => /\/(rest|auth)\/v1\/|\/assets\/.*\.js$/.test(entry.name))
      .map((entry) => ({
        path: new URL(entry.name).pathname + new URL(entry.name).search,
        start: entry.startTime,
        duration: entry.duration,
      }))
    return { times: w.benchTimes, tasks: w.benchTasks, requests }
  })
  const { click = NaN, unlocked = NaN, inquiry = NaN } = times
  return {
    unlockToInquiryMs: Math.round(inquiry - unlocked),
    clickToInquiryMs: Math.round(inquiry - click),
    clickToUnlockMs: Math.round(unlocked - click),
    longTasks: tasks
      .filter((task) => task.start + task.duration >= unlocked && task.start <= inquiry)
      .map((task) => [Math.round(task.start - unlocked), Math.round(task.duration)]),
    requests: requests
      .filter((request) => request.start >= click)
      .map((request) => [
        request.path.slice(0, 60),
        Math.round(request.start - unlocked),
        Math.round(request.duration),
      ]),
  }
}

/** Signs in with "Keep me signed in on this device" ticked: the session is the device's. */
async function signInTrusted(page: Page, email: string): Promise<void> {
  await page.getByLabel(copy.signIn.email).fill(email)
  await page.getByLabel(copy.signIn.password).fill(STAFF_PASSWORD)
  await page.getByLabel(copy.signIn.keepSignedIn).check()
  await page.getByRole('button', { name: copy.signIn.submit }).click()
}

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'bench-passkey-'))
  const backendDir = join(work, 'backend')
  const outDir = join(work, 'dist-inbox')
  const backend = await startLocalBackend({ apiPort: API_PORT, dbPort: null, backendDir })
  const runs: number[] = []
  const alertRuns: AlertRun[] = []
  try {
    // The newest inquiry is the one an alert announces: new, and not among the oldest new ones
    // the list's first screen shows.
    const [newest] = await seedInquiries(
      (sql, params) => backend.db.query(sql, params),
      backendDir,
      { rows: ROWS, days: 10 },
    )
    if (!newest) throw new Error('no inquiry seeded')
    process.env.VITE_SUPABASE_URL = backend.url
    await build({
      configFile: resolve('src/inbox/vite.config.ts'),
      build: { outDir },
      logLevel: 'warn',
    })
    const server = await preview({
      configFile: resolve('src/inbox/vite.config.ts'),
      build: { outDir },
      preview: { host: '127.0.0.1', port: INBOX_PORT, strictPort: true },
      logLevel: 'warn',
    })
    try {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
      try {
        const email = `bench-${randomUUID().slice(0, 8)}@example.com`
        await runStaff(['add', email, '--password', STAFF_PASSWORD], {
          env: { SUPABASE_URL: backend.url, SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey },
          output: { out: () => {}, err: () => {} },
        })
        const page = await browser.newPage({ viewport: { width: 375, height: 812 } })
        const { cdp } = await addPrfAuthenticator(page)
        // WebAuthn needs a domain: localhost, not 127.0.0.1.
        const base = `http://localhost:${INBOX_PORT}/`
        await page.goto(base)
        await signInTrusted(page, email)
        await enterCode(page, totpCode(await setupKey(page)))
        await importKey(
          page,
          { secret: await readFile(join(backendDir, 'dev-identity.txt'), 'utf8') },
          { passkey: true },
        )
        await expect(page.getByTestId('list-count')).toHaveText(copy.list.matching(ROWS, ROWS), {
          timeout: 60_000,
        })

        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
        for (let run = 0; run < RUNS; run += 1) {
          await page.reload()
          await expect(page.getByRole('button', { name: copy.key.passkeyUnlock })).toBeVisible()
          runs.push(await timePasskeyUnlock(page))
        }

        const link = inboxLink(base, referenceOf(newest)) ?? ''
        for (let run = 0; run < RUNS; run += 1) {
          // A new tab of this device: no session in the tab, the device's in localStorage.
          await page.evaluate(() => sessionStorage.clear())
          await page.goto(link)
          await expect(page.getByRole('button', { name: copy.key.passkeyUnlock })).toBeVisible()
          alertRuns.push(await timeAlertLink(page, 'Bench inquiry 0', referenceOf(newest)))
          console.log(`alert link run ${run + 1}:`, JSON.stringify(alertRuns.at(-1)))
        }
      } finally {
        await browser.close()
      }
    } finally {
      await new Promise<void>((done) => server.httpServer.close(() => done()))
    }
  } finally {
    await backend.close()
    await rm(work, { recursive: true, force: true })
  }

  const passkeyUnlockMs = median(runs)
  const alert = {
    unlockToInquiryMs: median(alertRuns.map((run) => run.unlockToInquiryMs)),
    clickToInquiryMs: median(alertRuns.map((run) => run.clickToInquiryMs)),
    clickToUnlockMs: median(alertRuns.map((run) => run.clickToUnlockMs)),
  }
  console.table([
    { passkeyUnlockMs, ...alert, target: TARGET_MS, alertTarget: ALERT_TARGET_MS, rows: ROWS },
  ])
  console.log('passkey unlock runs (ms):', JSON.stringify(runs))
  await mkdir('bench-results', { recursive: true })
  await writeFile(
    'bench-results/passkey.json',
    `${JSON.stringify(
      {
        runs,
        cpuSlowdown: CPU_SLOWDOWN,
        targetMs: TARGET_MS,
        passkeyUnlockMs,
        alertLink: { rows: ROWS, targetMs: ALERT_TARGET_MS, ...alert, runs: alertRuns },
      },
      null,
      2,
    )}\n`,
  )
  const misses: string[] = []
  if (!(passkeyUnlockMs <= TARGET_MS))
    misses.push(`passkey unlock ${passkeyUnlockMs} ms (target ${TARGET_MS})`)
  if (!(alert.unlockToInquiryMs <= ALERT_TARGET_MS))
    misses.push(
      `alert link: the inquiry ${alert.unlockToInquiryMs} ms after the unlock (target ${ALERT_TARGET_MS})`,
    )
  if (misses.length) {
    console.log(`Passkey targets missed at ${CPU_SLOWDOWN}x CPU:\n  ${misses.join('\n  ')}`)
    process.exitCode = 1
  } else console.log('Passkey targets met.')
}

await main()
