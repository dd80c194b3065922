import { randomUUID } from 'node:crypto'
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { generateX25519Identity, identityToRecipient } from 'age-encryption'
import { agencySigningSeed, signingKeyOf } from '../../src/shared/crypto/signing.ts'
import { DEFAULT_BACKEND_DIR } from './paths.ts'

/**
 * The local development identity: an age key pair that `npm start`, the dev server and the browser
 * tests seal submissions to, so a fresh clone needs no key setup. It lives in the backend's data
 * folder (gitignored), in age-keygen's file format, so the stock `age -d -i <file>` opens what the
 * local site sealed. Never a production key: the build refuses to fall back to it for a hosted
 * Supabase URL.
 */

const FILE_NAME = 'dev-identity.txt'

function defaultDir(): string {
  const fromEnv = process.env.LOCAL_BACKEND_DIR?.trim()
  return resolve(fromEnv ? fromEnv : DEFAULT_BACKEND_DIR)
}

/** Where the development identity is, for the backend folder in use (LOCAL_BACKEND_DIR or `.local-backend/`). */
export const DEV_IDENTITY_FILE = join(defaultDir(), FILE_NAME)

export type DevIdentity = { identityFile: string; recipient: string; signingKey: string }

async function readIdentity(identityFile: string): Promise<DevIdentity> {
  const text = await readFile(identityFile, 'utf8')
  const secret = text.split('\n').find((line) => line.startsWith('AGE-SECRET-KEY-1'))
  if (!secret)
    throw new Error(
      `${identityFile} holds no age identity (AGE-SECRET-KEY-1…); delete it to get a new one`,
    )
  // Derived from the secret, not read from the comment: the comment is for people.
  return {
    identityFile,
    recipient: await identityToRecipient(secret.trim()),
    signingKey: signingKeyOf(agencySigningSeed(secret.trim())!),
  }
}

/**
 * The development identity of a backend folder, created on first use. Concurrent callers (a build
 * and the backend starting together) end with the same key: the file appears atomically, by a hard
 * link from a private temporary file, and whoever loses the race reads the winner's.
 */
export async function ensureDevIdentity(dir: string = defaultDir()): Promise<DevIdentity> {
  const identityFile = join(resolve(dir), FILE_NAME)
  try {
    return await readIdentity(identityFile)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }

  await mkdir(resolve(dir), { recursive: true, mode: 0o700 })
  const identity = await generateX25519Identity()
  const recipient = await identityToRecipient(identity)
  const created = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
  const temporary = `${identityFile}.${randomUUID()}.tmp`
  await writeFile(temporary, `# created: ${created}\n# public key: ${recipient}\n${identity}\n`, {
    mode: 0o600,
    flag: 'wx',
  })
  try {
    await chmod(temporary, 0o600) // in case a umask widened nothing, or a filesystem ignored mode
    await link(temporary, identityFile)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return readIdentity(identityFile)
  } finally {
    await unlink(temporary)
  }
  return { identityFile, recipient, signingKey: signingKeyOf(agencySigningSeed(identity)!) }
}
