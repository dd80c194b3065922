/**
 * `npm run bench`, the passkey's part (issue 25): against a local backend of its own and a build
 * of the inbox pointed at it, in Chromium with a virtual authenticator (PRF), the CPU slowed 4x:
 * from "Unlock with passkey" to the list's heading, median of 5 reloads, at most 0.5 s. The
 * virtual authenticator answers at once, so the time is the inbox's own (the WebAuthn call, the
 * age file opened with the PRF output), not a person's touch.
 *
 * Writes bench-results/passkey.json; exits 1 if the target is missed.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { randomUUID } from 'node:crypto'
import { chromium, expect, type Page } from '@playwright/test'
import { build, preview } from 'vite'
import { copy } from '../../src/inbox/content/copy'
import { totpCode } from '../../supabase/local/auth/totp'
import { ensureDevIdentity } from '../../supabase/local/dev-identity'
import { startLocalBackend } from '../../supabase/local/local-backend'
import { runStaff } from '../../supabase/staff/staff-command'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium'
import { enterCode, importKey, setupKey, signIn, STAFF_PASSWORD } from '../support/staff-inbox'
import { addPrfAuthenticator } from '../support/passkeys'
import { median } from './lighthouse-audit'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const CPU_SLOWDOWN = 4
const API_PORT = 54363
const INBOX_PORT = 4197
const TARGET_MS = 500

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

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'bench-passkey-'))
  const backendDir = join(work, 'backend')
  const outDir = join(work, 'dist-inbox')
  const backend = await startLocalBackend({ apiPort: API_PORT, dbPort: null, backendDir })
  const runs: number[] = []
  try {
    await ensureDevIdentity(backendDir)
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
        const page = await browser.newPage()
        const { cdp } = await addPrfAuthenticator(page)
        // WebAuthn needs a domain: localhost, not 127.0.0.1.
        await page.goto(`http://localhost:${INBOX_PORT}/`)
        await signIn(page, email)
        await enterCode(page, totpCode(await setupKey(page)))
        await importKey(
          page,
          { secret: await readFile(join(backendDir, 'dev-identity.txt'), 'utf8') },
          { passkey: true },
        )
        await expect(page.getByRole('heading', { name: copy.list.heading })).toBeVisible()

        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
        for (let run = 0; run < RUNS; run += 1) {
          await page.reload()
          await expect(page.getByRole('button', { name: copy.key.passkeyUnlock })).toBeVisible()
          runs.push(await timePasskeyUnlock(page))
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
  console.table([{ passkeyUnlockMs, target: TARGET_MS, cpuSlowdown: CPU_SLOWDOWN }])
  console.log('passkey unlock runs (ms):', JSON.stringify(runs))
  await mkdir('bench-results', { recursive: true })
  await writeFile(
    'bench-results/passkey.json',
    `${JSON.stringify({ runs, cpuSlowdown: CPU_SLOWDOWN, targetMs: TARGET_MS, passkeyUnlockMs }, null, 2)}\n`,
  )
  if (!(passkeyUnlockMs <= TARGET_MS)) {
    console.log(`Passkey unlock took ${passkeyUnlockMs} ms at ${CPU_SLOWDOWN}x CPU`)
    process.exitCode = 1
  } else console.log('Passkey unlock target met.')
}

await main()
