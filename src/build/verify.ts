import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildIdOf, BUILD_MANIFEST_PATH } from '../shared/build-id.ts'
import { sha256Hex, type BuildManifest } from './build-manifest.ts'
import { headersFor, HOST_FILES, parseHeadersFile, type App } from './security-headers.ts'

/**
 * `npm run verify -- <site URL> [<inbox URL>]`: reads each live app's build manifest, builds this
 * checkout with the configuration and clock the manifest names, and compares every file the live
 * app serves, and the headers it sends with each, with that build. One line per difference; the
 * exit status is 1 if there is any, 2 if the check itself could not run.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** Builds, by what they were built from: the same inputs give the same bytes (a reproducible build). */
const CACHE_DIR = join(ROOT, 'node_modules/.cache/verify')

type Target = { app: App; url: string }

const fetchLive = (url: string) => fetch(url, { cache: 'no-store', redirect: 'follow' })

async function liveManifest({
  app,
  url,
}: Target): Promise<{ manifest: BuildManifest; id: string }> {
  const response = await fetchLive(`${url}${BUILD_MANIFEST_PATH}`)
  if (!response.ok)
    throw new Error(
      `${url}${BUILD_MANIFEST_PATH} answered ${response.status}: no build manifest to check against.`,
    )
  const bytes = new Uint8Array(await response.arrayBuffer())
  const manifest = JSON.parse(new TextDecoder().decode(bytes)) as BuildManifest
  if (manifest.app !== app)
    throw new Error(`${url} serves the manifest of the ${manifest.app}, not of the ${app}.`)
  return { manifest, id: await buildIdOf(bytes) }
}

/** What a build's bytes depend on besides node_modules: every file git would track, and the settings. */
function buildInputsKey(app: App, manifest: BuildManifest): string {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(ROOT, file)))
    .sort()
  const inputs = files.map((file) => `${file}\0${sha256Hex(readFileSync(join(ROOT, file)))}`)
  const settings = JSON.stringify([app, manifest.sourceDateEpoch, manifest.config])
  return sha256Hex([settings, ...inputs].join('\n')).slice(0, 32)
}

function run(args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`vite build ${args.join(' ')} failed:\n${result.stderr}`)
}

/** This checkout built as the live app was: its configuration, its clock, a production build. */
async function localBuild(app: App, manifest: BuildManifest): Promise<string> {
  const dir = join(CACHE_DIR, buildInputsKey(app, manifest))
  if (existsSync(join(dir, BUILD_MANIFEST_PATH))) return dir
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...manifest.config,
    NODE_ENV: 'production',
    SOURCE_DATE_EPOCH: String(manifest.sourceDateEpoch),
  }
  const partial = `${dir}.partial`
  await rm(partial, { recursive: true, force: true })
  await mkdir(CACHE_DIR, { recursive: true })
  if (app === 'site') {
    run(['--ssr', 'src/app/entry-prerender.tsx'], env)
    run(['--outDir', partial], env)
  } else {
    run(['--config', 'src/inbox/vite.config.ts', '--outDir', partial], env)
  }
  await rename(partial, dir)
  return dir
}

/** Every difference between the live app and this checkout's build of it, one sentence each. */
export async function differences(
  target: Target,
): Promise<{ lines: string[]; id: string; commit: string }> {
  const { manifest: live, id } = await liveManifest(target)
  const dir = await localBuild(target.app, live)
  const local = JSON.parse(await readFile(join(dir, BUILD_MANIFEST_PATH), 'utf8')) as BuildManifest
  const rules = parseHeadersFile(await readFile(join(dir, HOST_FILES.headers), 'utf8'))
  const lines: string[] = []
  const say = (line: string) => lines.push(`${target.app} ${target.url}: ${line}`)

  if (live.commit !== local.commit)
    say(`built from commit ${live.commit}, this checkout is at ${local.commit}.`)
  if (live.keyFingerprint !== local.keyFingerprint)
    say(
      `its manifest gives the key fingerprint ${live.keyFingerprint}, the build gives ${local.keyFingerprint}.`,
    )

  const paths = [...new Set([...Object.keys(local.files), ...Object.keys(live.files)])].sort()
  for (const path of paths) {
    const expected = local.files[path]
    if (expected === undefined) {
      say(`${path} is in its manifest but not in this checkout's build.`)
      continue
    }
    if (live.files[path] !== expected)
      say(`${path} is listed with another SHA-256 than this checkout's build.`)
    const response = await fetchLive(`${target.url}${path}`)
    const body = new Uint8Array(await response.arrayBuffer())
    if (!response.ok) {
      say(`${path} answered ${response.status}; the build has it.`)
      continue
    }
    if (sha256Hex(body) !== expected) say(`${path} differs from this checkout's build.`)
    const served = new URL(response.url).pathname
    for (const [name, value] of Object.entries(headersFor(rules, served))) {
      const got = response.headers.get(name)
      if (got !== value)
        say(
          `${served} sends ${name}: ${got === null ? '(none)' : `"${got}"`}; the build says "${value}".`,
        )
    }
  }
  return { lines, id, commit: live.commit }
}

async function main(args: string[]): Promise<number> {
  const urls = args.filter((arg) => arg !== '--').map((arg) => arg.replace(/\/+$/, ''))
  if (urls.length < 1 || urls.length > 2) {
    console.error('Usage: npm run verify -- <site URL> [<inbox URL>]')
    return 2
  }
  const targets: Target[] = urls.map((url, index) => ({ app: index === 0 ? 'site' : 'inbox', url }))
  let found = 0
  for (const target of targets) {
    const { lines, id, commit } = await differences(target)
    for (const line of lines) console.log(line)
    found += lines.length
    if (lines.length === 0)
      console.log(
        `${target.app} ${target.url}: build ${id} (commit ${commit}) is exactly this checkout's build.`,
      )
  }
  if (found > 0)
    console.log(
      `${found} difference${found === 1 ? '' : 's'}: what is served is not what this checkout builds.`,
    )
  return found > 0 ? 1 : 0
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error))
      process.exit(2)
    },
  )
}
