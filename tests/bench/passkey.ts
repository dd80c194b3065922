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
import { expect, type Page } from '@playwright/test'
import { copy } from '../../src/inbox/content/copy'
import { addPrfAuthenticator } from '../support/passkeys'
import { inboxLink } from '../../supabase/functions/_shared/staff-alert-contract'
import { referenceOf } from '../../src/shared/conversation/reference'
import {
  type BenchBackend,
  benchRuns,
  benchTimesAfter,
  CPU_SLOWDOWN,
  median,
  recordLongTasks,
  reportMisses,
  signInWithDevIdentity,
  withInboxBench,
  writeResults,
} from './harness'
import { seedInquiries } from './seed-inquiries'

const RUNS = benchRuns(5)
const PORTS = { api: 54363, inbox: 4197 }
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
  const times = await benchTimesAfter(page, 'open', 30_000)
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
  const longTasks = await recordLongTasks(page)
  await page.evaluate(
    ({ name, reference }) => {
      const times: Record<string, number> = {}
      ;(window as unknown as { benchTimes: Record<string, number> }).benchTimes = times
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
  const times = await benchTimesAfter(page, 'inquiry', 60_000)
  const tasks = await longTasks()
  const requests = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => /\/(rest|auth)\/v1\/|\/assets\/.*\.js$/.test(entry.name))
      .map((entry) => ({
        path: new URL(entry.name).pathname + new URL(entry.name).search,
        start: entry.startTime,
        duration: entry.duration,
      })),
  )
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

async function main() {
  const runs: number[] = []
  const alertRuns: AlertRun[] = []
  // The newest inquiry is the one an alert announces: new, and not among the oldest new ones
  // the list's first screen shows.
  let newest = ''
  const seed = async ({ backend, backendDir }: BenchBackend) => {
    const ids = await seedInquiries((sql, params) => backend.db.query(sql, params), backendDir, {
      rows: ROWS,
      days: 10,
    })
    newest = ids[0] ?? ''
    if (!newest) throw new Error('no inquiry seeded')
  }
  await withInboxBench('passkey', PORTS, seed, async (bench) => {
    const page = await bench.browser.newPage({ viewport: { width: 375, height: 812 } })
    const { cdp } = await addPrfAuthenticator(page)
    // WebAuthn needs a domain: localhost, not 127.0.0.1.
    const base = `http://localhost:${bench.port}/`
    await page.goto(base)
    await signInWithDevIdentity(page, bench, {
      rows: ROWS,
      timeout: 60_000,
      trusted: true,
      passkey: true,
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
  })

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
  await writeResults('passkey', {
    runs,
    cpuSlowdown: CPU_SLOWDOWN,
    targetMs: TARGET_MS,
    passkeyUnlockMs,
    alertLink: { rows: ROWS, targetMs: ALERT_TARGET_MS, ...alert, runs: alertRuns },
  })
  const misses: string[] = []
  if (!(passkeyUnlockMs <= TARGET_MS))
    misses.push(`passkey unlock ${passkeyUnlockMs} ms (target ${TARGET_MS})`)
  if (!(alert.unlockToInquiryMs <= ALERT_TARGET_MS))
    misses.push(
      `alert link: the inquiry ${alert.unlockToInquiryMs} ms after the unlock (target ${ALERT_TARGET_MS})`,
    )
  reportMisses(`Passkey (${CPU_SLOWDOWN}x CPU)`, misses)
}

await main()
