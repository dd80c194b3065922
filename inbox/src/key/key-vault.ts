import { armor, Decrypter, Encrypter, identityToRecipient } from 'age-encryption'
import { openDB, type IDBPDatabase } from 'idb'

/**
 * The agency's age identity on this device: in IndexedDB only as an age file encrypted to the
 * staff member's passphrase (scrypt), so `age -d` can read it too; in memory only once unlocked.
 * Never in web storage, a request or a cache.
 */

/**
 * scrypt's work factor (2^N). What it protects against: someone who copies this device's storage
 * and guesses passphrases offline; each guess costs what an unlock costs. 2^16 keeps an unlock on a
 * slow phone near a second (measured in `npm run bench`); age's default, 2^18, is four times that.
 */
export const SCRYPT_LOG_N = 16
export const MIN_PASSPHRASE_LENGTH = 10

const DB_NAME = 'inbox-key'
const STORE = 'key'
const RECORD = 'agency'

export class KeyVaultError extends Error {
  constructor(readonly problem: 'not-a-key' | 'wrong-passphrase' | 'file-passphrase') {
    super(problem)
    this.name = 'KeyVaultError'
  }
}

let opened: Promise<IDBPDatabase> | null = null
const database = () =>
  (opened ??= openDB(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore(STORE)
    },
  }))

/** The AGE-SECRET-KEY-1… lines of what was pasted (an age-keygen file has comment lines too). */
export async function parseIdentities(text: string): Promise<string[]> {
  const secrets = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.startsWith('AGE-SECRET-KEY-1'))
  if (secrets.length === 0) throw new KeyVaultError('not-a-key')
  try {
    await Promise.all(secrets.map((secret) => identityToRecipient(secret)))
  } catch {
    throw new KeyVaultError('not-a-key')
  }
  return secrets
}

const AGE_HEADER = 'age-encryption.org/v1\n'
const AGE_ARMOR = '-----BEGIN AGE ENCRYPTED FILE-----'

/**
 * The identities in a key file: an age-keygen file as is, or one encrypted with `age -p` (binary
 * or `--armor`), opened with the passphrase it was encrypted with. That passphrase is used once,
 * here; the key is then kept under the device's own passphrase.
 */
export async function readKeyFile(bytes: Uint8Array, filePassphrase: string): Promise<string[]> {
  const text = new TextDecoder().decode(bytes)
  const armored = text.trimStart().startsWith(AGE_ARMOR)
  if (!armored && !text.startsWith(AGE_HEADER)) return parseIdentities(text)
  if (!filePassphrase) throw new KeyVaultError('file-passphrase')
  const decrypter = new Decrypter()
  decrypter.addPassphrase(filePassphrase)
  let opened: string
  try {
    opened = await decrypter.decrypt(armored ? armor.decode(text) : bytes, 'text')
  } catch {
    throw new KeyVaultError('file-passphrase')
  }
  return parseIdentities(opened)
}

export async function hasSavedKey(): Promise<boolean> {
  return (await (await database()).get(STORE, RECORD)) !== undefined
}

/** Encrypts the identities to the passphrase and keeps only that on the device. */
export async function saveKey(identities: string[], passphrase: string): Promise<void> {
  const encrypter = new Encrypter()
  encrypter.setPassphrase(passphrase)
  encrypter.setScryptWorkFactor(SCRYPT_LOG_N)
  const file = await encrypter.encrypt(identities.join('\n'))
  await (await database()).put(STORE, file, RECORD)
}

export async function unlockKey(passphrase: string): Promise<string[]> {
  const file = (await (await database()).get(STORE, RECORD)) as Uint8Array | undefined
  if (!file) throw new KeyVaultError('wrong-passphrase')
  const decrypter = new Decrypter()
  decrypter.addPassphrase(passphrase)
  try {
    return (await decrypter.decrypt(file, 'text')).split('\n').filter(Boolean)
  } catch {
    throw new KeyVaultError('wrong-passphrase')
  }
}

export async function forgetKey(): Promise<void> {
  await (await database()).delete(STORE, RECORD)
}
