import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { decryptStream } from '../../src/shared/crypto/open-file'
import { UsageError } from './cli-io'
import { localApiUrl } from '../local/local-connection'
import { DEMO_JWT_SECRET, signApiKeys } from '../local/gateway'

/**
 * `npm run inbox -- attachment <object> --out <file>`: one sealed attachment (issue 26) fetched
 * from Storage and opened on this machine as a stream, never whole in memory: the ciphertext
 * through the Storage API, decrypted with the staff identity, written to `--out` (mode 600),
 * and, with `--sha256`, checked against the SHA-256 the sealed document lists for it.
 *
 * Storage is read with the service role: this checkout's local backend (its key is derived from
 * the local JWT secret), or SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY on an administrator's
 * machine. Staff read attachments in the inbox app, signed in at aal2.
 */

export const OBJECT_NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const BUCKET = 'contact-attachments'

export type DownloadResult = { bytes: number; sha256: string; matches: boolean | null }

async function storageAccess(env: NodeJS.ProcessEnv): Promise<{ url: string; key: string }> {
  const { SUPABASE_URL: url, SUPABASE_SERVICE_ROLE_KEY: key, LOCAL_JWT_SECRET } = env
  if ((url === undefined) !== (key === undefined))
    throw new UsageError(
      'Set both SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY, or neither (the local backend).',
    )
  if (url !== undefined && key !== undefined) return { url: url.replace(/\/+$/, ''), key }
  let local: string
  try {
    local = await localApiUrl(env.LOCAL_BACKEND_DIR?.trim() || undefined)
  } catch (error) {
    throw new UsageError(
      `${error instanceof Error ? error.message : String(error)}\n` +
        'Start it with `npm start` (or `npm run backend`), or set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY.',
    )
  }
  const keys = await signApiKeys(LOCAL_JWT_SECRET ?? DEMO_JWT_SECRET)
  return { url: local, key: keys.serviceRoleKey }
}

export async function downloadAttachment(options: {
  object: string
  out: string
  secrets: string[]
  sha256?: string
  env: NodeJS.ProcessEnv
  fetch?: typeof fetch
}): Promise<DownloadResult> {
  if (!OBJECT_NAME.test(options.object))
    throw new UsageError('The object is named <submission id>/<object id>, two lowercase UUIDs.')
  if (options.sha256 !== undefined && !/^[0-9a-f]{64}$/.test(options.sha256))
    throw new UsageError('--sha256 takes 64 lowercase hexadecimal characters.')
  const { url, key } = await storageAccess(options.env)
  const fetcher = options.fetch ?? fetch
  let response: Response
  try {
    response = await fetcher(`${url}/storage/v1/object/authenticated/${BUCKET}/${options.object}`, {
      headers: { apikey: key, authorization: `Bearer ${key}` },
    })
  } catch {
    throw new UsageError(`Cannot reach Storage at ${url}. Is the backend running?`)
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { statusCode?: string }
    throw new UsageError(
      body.statusCode === '404'
        ? `No attachment ${options.object} is stored (or it was purged with its inquiry).`
        : `Storage refused the download (HTTP ${response.status}, ${body.statusCode ?? 'no status'}).`,
    )
  }
  const hash = createHash('sha256')
  let bytes = 0
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length
      hash.update(chunk)
      callback(null, chunk)
    },
  })
  try {
    const plain = await decryptStream(response.body, options.secrets)
    await pipeline(
      Readable.fromWeb(plain as never),
      measure,
      createWriteStream(options.out, { mode: 0o600, flags: 'wx' }),
    )
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new UsageError(`${options.out} exists already: choose another --out.`)
    await rm(options.out, { force: true })
    throw new UsageError(
      'The attachment could not be opened with this identity (not sealed to it, or damaged); nothing was kept.',
    )
  }
  const sha256 = hash.digest('hex')
  return {
    bytes,
    sha256,
    matches: options.sha256 === undefined ? null : options.sha256 === sha256,
  }
}
