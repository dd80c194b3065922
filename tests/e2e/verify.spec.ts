import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildIdOf, BUILD_MANIFEST_PATH } from '../../src/shared/build-id'
import type { BuildManifest } from '../../src/build/build-manifest'
import { E2E_SITE_DIR } from '../support/shipped-headers'
import { E2E_INBOX_URL, freePort } from '../support/ports'
import { waitForHydration } from '../support/site'
import { expect, test } from '../support/strict-page'

/**
 * `npm run verify` against the served builds: the faithful ones pass; a copy with one byte of one
 * chunk changed, then with one header changed, fails naming the file, then the header. The first
 * run builds this checkout as the manifests say; the later runs reuse that build.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function verify(...urls: string[]): { status: number | null; output: string } {
  const result = spawnSync('node_modules/.bin/tsx', ['src/build/verify.ts', ...urls], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** `vite preview` of a folder, as the tests' own site server runs it. */
async function preview(dir: string): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(
    'node_modules/.bin/vite',
    ['preview', '--port', String(port), '--strictPort', '--outDir', dir],
    {
      cwd: ROOT,
      stdio: 'ignore',
    },
  )
  const origin = `http://127.0.0.1:${port}`
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (
      await fetch(`${origin}/robots.txt`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return { origin, child }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  child.kill()
  throw new Error(`vite preview of ${dir} did not answer`)
}

test.describe.configure({ mode: 'serial' })
test.setTimeout(300_000)

test('npm run verify finds the served site and inbox exactly as this checkout builds them', ({
  baseURL,
}) => {
  const { status, output } = verify('--', baseURL ?? '', E2E_INBOX_URL)
  expect(output).toMatch(
    /^site .*: build [0-9a-f]{12} \(commit .*\) is exactly this checkout's build\.$/m,
  )
  expect(output).toMatch(
    /^inbox .*: build [0-9a-f]{12} \(commit .*\) is exactly this checkout's build\.$/m,
  )
  expect(status).toBe(0)
})

test('npm run verify names the one chunk with a changed byte, then the header that changed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-altered-'))
  cpSync(E2E_SITE_DIR, dir, { recursive: true })
  const manifest = JSON.parse(readFileSync(join(dir, BUILD_MANIFEST_PATH), 'utf8')) as BuildManifest
  const chunk = Object.keys(manifest.files).find((path) => /^\/assets\/.*\.js$/.test(path)) ?? ''
  const original = readFileSync(join(dir, chunk))
  const altered = Buffer.from(original)
  altered[altered.length - 2] = altered[altered.length - 2] === 0x20 ? 0x09 : 0x20
  writeFileSync(join(dir, chunk), altered)
  const server = await preview(dir)
  try {
    const changedFile = verify(server.origin)
    expect(changedFile.output).toContain(
      `site ${server.origin}: ${chunk} differs from this checkout's build.`,
    )
    expect(changedFile.output).toContain(
      '1 difference: what is served is not what this checkout builds.',
    )
    expect(changedFile.status).toBe(1)

    writeFileSync(join(dir, chunk), original)
    const headers = readFileSync(join(dir, '_headers'), 'utf8')
    writeFileSync(
      join(dir, '_headers'),
      headers.replace('Referrer-Policy: no-referrer', 'Referrer-Policy: origin'),
    )
    const changedHeader = verify(server.origin)
    expect(changedHeader.output).toContain(
      `/index.html sends Referrer-Policy: "origin"; the build says "no-referrer".`,
    )
    expect(changedHeader.output).not.toContain('differs from')
    expect(changedHeader.status).toBe(1)
  } finally {
    server.child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})

test('/privacy shows the build id: the SHA-256 of the manifest the site serves, shortened', async ({
  page,
}) => {
  const id = await buildIdOf(readFileSync(join(E2E_SITE_DIR, BUILD_MANIFEST_PATH)))
  await page.goto('/privacy')
  await waitForHydration(page)
  await expect(page.getByTestId('build-id')).toHaveText(id)
  await expect(page.getByText('npm run verify -- ')).toBeVisible()
})
