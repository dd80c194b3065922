import { readFile, stat, writeFile } from 'node:fs/promises'
import { readIdentityLines, recipientsOf } from '../../src/shared/age-identity-lines'

/**
 * age identity files in the format `age-keygen` writes, so staff can use the same file with our
 * commands and with the stock `age -d -i`:
 *
 *     # created: 2026-11-22T16:20:00Z
 *     # public key: age1…
 *     AGE-SECRET-KEY-1…
 */

export class IdentityFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'IdentityFileError'
  }
}

export function formatIdentityFile(identity: string, recipient: string, created: Date): string {
  const stamp = created.toISOString().replace(/\.\d{3}Z$/, 'Z')
  return `# created: ${stamp}\n# public key: ${recipient}\n${identity}\n`
}

/** Writes a new identity file readable by its owner only; never replaces an existing file. */
export async function writeNewIdentityFile(path: string, contents: string): Promise<void> {
  try {
    // 'wx' fails if the path exists: an overwritten identity would lose every row sealed to it.
    await writeFile(path, contents, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new IdentityFileError(
        `${path} already exists. Refusing to overwrite an identity: rows sealed to it could never be read again. Choose another --out path.`,
      )
    }
    throw error
  }
}

export type Identities = {
  /** The secret keys, `AGE-SECRET-KEY-…`, as typage's Decrypter takes them. */
  secrets: string[]
  /** Their public recipients, `age1…`, to say which keys were tried. */
  recipients: string[]
}

const ENCRYPTED_IDENTITY = /^(age-encryption\.org\/v1|-----BEGIN AGE ENCRYPTED FILE-----)/

/** Reads the identities in an identity file's text (as `age -i` reads it). */
export async function parseIdentities(text: string, source: string): Promise<Identities> {
  const trimmed = text.trimStart()
  if (ENCRYPTED_IDENTITY.test(trimmed)) {
    throw new IdentityFileError(
      `${source} is itself encrypted (age -p). Decrypt it into a pipe, never to disk: ` +
        `age -d ${source} | npm run inbox -- show <ref> --identity -`,
    )
  }
  const { secrets, pluginLines, otherLines } = readIdentityLines(text)
  // The first problem in the file's order, as `age -i` would stop at it.
  const firstPlugin = pluginLines[0] ?? Infinity
  const firstOther = otherLines[0] ?? Infinity
  if (firstPlugin < firstOther) {
    throw new IdentityFileError(
      `${source} line ${firstPlugin} is a plugin identity (for example a YubiKey): this command cannot use plugins. ` +
        "Copy the row's sealed cell and decrypt it with the stock tool: age -d -i <identity file>",
    )
  }
  if (firstOther !== Infinity) {
    // The line itself is not quoted: it may be part of a secret.
    throw new IdentityFileError(
      `${source} line ${firstOther} is not an age identity (AGE-SECRET-KEY-…).`,
    )
  }
  if (secrets.length === 0) throw new IdentityFileError(`${source} holds no age identity.`)
  const recipients = await recipientsOf(secrets)
  if (!recipients) throw new IdentityFileError(`${source} holds a malformed age identity.`)
  return { secrets, recipients }
}

/** Reads identities from a file, or from standard input when the path is "-". */
export async function readIdentities(
  path: string,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<Identities> {
  if (path === '-') {
    const chunks: Buffer[] = []
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer))
    return parseIdentities(Buffer.concat(chunks).toString('utf8'), 'standard input')
  }
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new IdentityFileError(
        `No identity file at ${path}. Pass the staff key with --identity <file>.`,
      )
    }
    throw error
  }
  return parseIdentities(text, path)
}

/** True when others than the owner may read the file (age itself does not check; we warn). */
export async function isReadableByOthers(path: string): Promise<boolean> {
  if (path === '-' || process.platform === 'win32') return false
  return ((await stat(path)).mode & 0o077) !== 0
}
