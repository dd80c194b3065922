// Two `npm run build`s of this checkout, in two folders, with one configuration, must give the same
// bytes: that is what lets anyone rebuild a deployment and compare it (`npm run verify`). Each copy
// holds the files git tracks (or would track) and links the one node_modules; the folders' own
// paths differ, so an absolute path, a date or a random id in the output shows up as a difference.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { servedFiles, sha256Hex, type BuildManifest } from '../src/build/build-manifest.ts'
import { BUILD_MANIFEST_PATH } from '../src/shared/build-id.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const RECIPIENT = 'age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc'
// A public signing key (Ed25519 of a fixed seed): a hosted build needs one beside each recipient.
const SIGNING_KEY = 'ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c'
const OUTPUTS = ['dist', 'dist-inbox'] as const

const workDir = mkdtempSync(join(tmpdir(), 'reproducible-build-'))
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

function copyOfCheckout(name: string): string {
  const copy = join(workDir, name)
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file !== '')
  for (const file of files) {
    try {
      cpSync(join(root, file), join(copy, file))
    } catch (error) {
      // A file deleted in the work tree but not yet in the index.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'))
  return copy
}

/**
 * Vitest's own variables stay out: with NODE_ENV=test Vite builds React's development JSX, which
 * names each component's absolute source path. A copy has no .git: the commit's time is given.
 */
const buildEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
  NODE_ENV: 'production',
  SOURCE_DATE_EPOCH: execFileSync('git', ['log', '-1', '--format=%ct'], {
    cwd: root,
    encoding: 'utf8',
  }).trim(),
  VITE_SUPABASE_URL: 'https://reproducible.supabase.co',
  VITE_SUBMISSION_RECIPIENTS: RECIPIENT,
  VITE_AGENCY_SIGNING_KEYS: SIGNING_KEY,
  VITE_SITE_URL: 'https://reproducible.example',
}

function build(copy: string): void {
  const result = spawnSync('npm', ['run', 'build'], { cwd: copy, encoding: 'utf8', env: buildEnv })
  if (result.status !== 0) throw new Error(`npm run build in ${copy} failed:\n${result.stderr}`)
}

/** Every file of the outputs, manifests and host files included, by SHA-256. */
function hashes(copy: string): Record<string, string> {
  const all: Record<string, string> = {}
  for (const output of OUTPUTS) {
    const files = execFileSync('find', ['.', '-type', 'f'], {
      cwd: join(copy, output),
      encoding: 'utf8',
    })
    for (const file of files.split('\n').filter(Boolean).sort())
      all[`${output}/${file.slice(2)}`] = sha256Hex(readFileSync(join(copy, output, file)))
  }
  return all
}

test(
  'two builds of one checkout in two folders are byte-identical, manifests included',
  { timeout: 600_000 },
  async () => {
    const [first, second] = [copyOfCheckout('a'), copyOfCheckout('b')]
    build(first)
    build(second)

    const firstHashes = hashes(first)
    expect(Object.keys(firstHashes).length).toBeGreaterThan(50)
    expect(hashes(second)).toEqual(firstHashes)

    for (const output of OUTPUTS) {
      const dir = join(first, output)
      const manifest = JSON.parse(
        readFileSync(join(dir, BUILD_MANIFEST_PATH), 'utf8'),
      ) as BuildManifest
      expect(manifest.files).toEqual(await servedFiles(dir))
      expect(manifest.files['/index.html']).toBe(firstHashes[`${output}/index.html`])
      expect(manifest.files).not.toHaveProperty(BUILD_MANIFEST_PATH)
      expect(manifest.files).not.toHaveProperty('/_headers')
      expect(manifest.config.VITE_SUPABASE_URL).toBe('https://reproducible.supabase.co')
      expect(manifest.config.VITE_SUBMISSION_RECIPIENTS).toBe(RECIPIENT)
      expect(manifest.config.VITE_AGENCY_SIGNING_KEYS).toBe(SIGNING_KEY)
      expect(manifest.keyFingerprint).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){3}$/)
    }
  },
)
