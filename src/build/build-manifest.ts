import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import type { Plugin } from 'vite'
import { keyFingerprint } from '../shared/submission/sealed-row.ts'
import { BUILD_MANIFEST_PATH } from '../shared/build-id.ts'
import { isHostFile, type App } from './security-headers.ts'

/**
 * What a build says about itself, served at `/build-manifest.json`: every file the app serves with
 * its SHA-256, the commit, the time the build takes as "now", and the public configuration it was
 * built with, so anyone can rebuild the same bytes (`npm run verify`) and compare. It lists the
 * other files, never itself; its own SHA-256, shortened, is the build id the apps show.
 */
export type BuildManifest = {
  app: App
  commit: string
  /** Seconds since 1970: the build's only clock (the footer's year), as SOURCE_DATE_EPOCH says. */
  sourceDateEpoch: number
  /** Every variable the build reads, as resolved: set them all and the build is the same. */
  config: Record<BuildVariable, string>
  keyFingerprint: string | null
  /** Served path (`/index.html`) to lowercase hex SHA-256, in path order. */
  files: Record<string, string>
}

/** The variables a build reads (src/lib/env.ts, the inbox's and the bench's own). */
export const BUILD_VARIABLES = [
  'VITE_AGENCY_NAME',
  'VITE_SITE_URL',
  'VITE_TELEGRAM_URL',
  'VITE_WHATSAPP_URL',
  'VITE_FOUNDER_EMAIL',
  'VITE_SUPABASE_URL',
  'VITE_SUPABASE_ANON_KEY',
  'VITE_SUBMISSION_RECIPIENTS',
  'VITE_AGENCY_SIGNING_KEYS',
  'VITE_INBOX_TRUSTED_DAYS',
  'VITE_BENCH_HOOKS',
] as const
export type BuildVariable = (typeof BUILD_VARIABLES)[number]

function git(root: string, args: string[]): string | null {
  try {
    return execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    return null
  }
}

/**
 * The commit being built and the build's clock: SOURCE_DATE_EPOCH when set (the reproducible-builds
 * convention, and what `npm run verify` sets), else the commit's own time, so two builds of one
 * commit agree even across a new year; outside a git checkout, the commit is "unknown".
 */
export function buildSource(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): { commit: string; sourceDateEpoch: number } {
  const commit = git(root, ['rev-parse', 'HEAD']) ?? 'unknown'
  const fromEnv = env.SOURCE_DATE_EPOCH?.trim()
  const epoch = fromEnv ? Number(fromEnv) : Number(git(root, ['log', '-1', '--format=%ct']) ?? NaN)
  if (fromEnv && !Number.isInteger(epoch))
    throw new Error(`SOURCE_DATE_EPOCH is "${fromEnv}": it takes whole seconds since 1970.`)
  return {
    commit,
    sourceDateEpoch: Number.isInteger(epoch) ? epoch : Math.floor(Date.now() / 1000),
  }
}

/**
 * The variables as this build resolved them: the recipients and signing keys included, perhaps the
 * development identity's.
 */
export function buildConfig(
  env: Record<string, string>,
  keys: { recipients: readonly string[]; signingKeys: readonly string[] } | null,
): Record<BuildVariable, string> {
  const config = Object.fromEntries(
    BUILD_VARIABLES.map((name) => [name, env[name]?.trim() ?? '']),
  ) as Record<BuildVariable, string>
  config.VITE_SUBMISSION_RECIPIENTS = (keys?.recipients ?? []).join(',')
  config.VITE_AGENCY_SIGNING_KEYS = (keys?.signingKeys ?? []).join(',')
  return config
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Every file of a built folder the host serves (not the host files, not the manifest), hashed. */
export async function servedFiles(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const paths = entries
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/')}`)
    .filter((path) => !isHostFile(path) && path !== BUILD_MANIFEST_PATH)
    .sort()
  const files: Record<string, string> = {}
  for (const path of paths) files[path] = sha256Hex(await readFile(join(dir, path)))
  return files
}

export function renderBuildManifest(manifest: BuildManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`
}

/**
 * Writes `build-manifest.json` last: after the pages, the icons and the service worker
 * (vite-plugin-pwa writes those in its own `closeBundle`, which this one follows).
 */
export function buildManifestPlugin(
  about: Omit<BuildManifest, 'files' | 'keyFingerprint'> & { keyId: string | null },
): Plugin {
  let outDir = ''
  return {
    name: 'site:build-manifest',
    apply: (config, { command }) => command === 'build' && !config.build?.ssr,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const { keyId, ...rest } = about
        const manifest: BuildManifest = {
          ...rest,
          keyFingerprint: keyId === null ? null : keyFingerprint(keyId),
          files: await servedFiles(outDir),
        }
        await writeFile(join(outDir, BUILD_MANIFEST_PATH), renderBuildManifest(manifest))
      },
    },
  }
}
