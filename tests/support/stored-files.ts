import { execFile } from 'node:child_process'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { DEMO_JWT_SECRET, signApiKeys } from '../../supabase/local/gateway'
import { sql } from './backend-db'
import { E2E_API_URL, E2E_BACKEND_DIR } from './ports'

/**
 * What the e2e backend's Storage holds, read as the tests need it: the objects' rows (the
 * database's own record), an object's ciphertext (read with the service role), the stock `age`
 * opening it, and every file of the backend's folder (to search for markers).
 */

const MB = 1024 * 1024

/** The development identity the e2e site seals to (tests/support/build-e2e.sh). */
export const E2E_DEV_IDENTITY_FILE = resolve(E2E_BACKEND_DIR, 'dev-identity.txt')

/** The names of `bucket`'s objects under `folder` (an inquiry's id), in order. */
export async function storedObjects(bucket: string, folder: string): Promise<string[]> {
  const rows = await sql<{ name: string }>(
    'select name from storage.objects where bucket_id = $1 and name like $2 order by name',
    [bucket, `${folder}/%`],
  )
  return rows.map((row) => row.name)
}

/** An object's ciphertext as Storage holds it, read with the service role. */
export async function objectBytes(bucket: string, name: string): Promise<Buffer> {
  const { serviceRoleKey } = await signApiKeys(DEMO_JWT_SECRET)
  const response = await fetch(`${E2E_API_URL}/storage/v1/object/${bucket}/${name}`, {
    headers: { authorization: `Bearer ${serviceRoleKey}`, apikey: serviceRoleKey },
  })
  if (response.status !== 200) throw new Error(`${bucket}/${name}: HTTP ${response.status}`)
  return Buffer.from(await response.arrayBuffer())
}

/** The stock `age` CLI, decrypting binary `ciphertext` with one identity file. */
export async function stockAgeDecrypt(
  ciphertext: Buffer,
  identityFile = E2E_DEV_IDENTITY_FILE,
): Promise<Buffer> {
  const run = promisify(execFile)('age', ['--decrypt', '--identity', identityFile], {
    encoding: 'buffer',
    maxBuffer: 64 * MB,
  })
  run.child.stdin?.end(ciphertext)
  return (await run).stdout
}

/** Every file under a folder (up to 64 MB each), as latin1 text, with its path. */
export async function filesUnder(folder: string): Promise<Array<{ path: string; text: string }>> {
  const found: Array<{ path: string; text: string }> = []
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    if ((await stat(path)).size > 64 * MB) continue
    found.push({ path, text: (await readFile(path)).toString('latin1') })
  }
  return found
}
