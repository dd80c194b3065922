import { armor, Decrypter, Encrypter, webauthn } from 'age-encryption'
import { readIdentityLines, recipientsOf } from '../../../shared/age-identity-lines'
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

export type KeyProblem = 'not-a-key' | 'wrong-passphrase' | 'file-passphrase' | 'passkey'

export class KeyVaultError extends Error {
  constructor(readonly problem: KeyProblem) {
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

/**
 * The identities in what was pasted or read from a key file. Lines that are not identities are
 * passed over (a paste may carry a few words around the key); it takes at least one sound one.
 */
export async function parseIdentities(text: string): Promise<string[]> {
  const { secrets } = readIdentityLines(text)
  if (secrets.length === 0 || !(await recipientsOf(secrets))) throw new KeyVaultError('not-a-key')
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

/**
 * The passkey copy: the same identities in a second age file, encrypted to a WebAuthn credential
 * with the PRF extension (age-encryption's fido2prf recipient), beside the credential's identity
 * string (its ID and relying party, not a secret). A fingerprint or face then unlocks; the
 * passphrase copy stays, for a device whose passkey is lost.
 */
const PASSKEY_RECORD = 'passkey'
type PasskeyRecord = { credential: string; file: Uint8Array }

/** Whether this browser can make passkeys at all (PRF support shows only when one is made). */
export const passkeysAvailable = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'

export async function hasPasskey(): Promise<boolean> {
  return (await (await database()).get(STORE, PASSKEY_RECORD)) !== undefined
}

export async function addPasskey(identities: string[], keyName: string): Promise<void> {
  try {
    const credential = await webauthn.createCredential({ keyName })
    const encrypter = new Encrypter()
    encrypter.addRecipient(new webauthn.WebAuthnRecipient({ identity: credential }))
    const file = await encrypter.encrypt(identities.join('\n'))
    const record: PasskeyRecord = { credential, file }
    await (await database()).put(STORE, record, PASSKEY_RECORD)
  } catch (error) {
    console.error('inbox: passkey setup failed', error)
    throw new KeyVaultError('passkey')
  }
}

export async function unlockWithPasskey(): Promise<string[]> {
  const record = (await (await database()).get(STORE, PASSKEY_RECORD)) as PasskeyRecord | undefined
  if (!record) throw new KeyVaultError('passkey')
  const decrypter = new Decrypter()
  decrypter.addIdentity(new webauthn.WebAuthnIdentity({ identity: record.credential }))
  try {
    return (await decrypter.decrypt(record.file, 'text')).split('\n').filter(Boolean)
  } catch (error) {
    console.error('inbox: passkey unlock failed', error)
    throw new KeyVaultError('passkey')
  }
}

/**
 * Whether to offer a passkey after an unlock with the passphrase: where this browser says it has
 * WebAuthn's PRF extension (or does not say), there is no passkey copy yet, and the offer was not
 * declined on this device.
 */
const OFFER_RECORD = 'passkey-offer'
export async function shouldOfferPasskey(): Promise<boolean> {
  if (!passkeysAvailable()) return false
  const capabilities = await (
    PublicKeyCredential as { getClientCapabilities?: () => Promise<Record<string, boolean>> }
  )
    .getClientCapabilities?.()
    .catch(() => undefined)
  if (capabilities && capabilities['extension:prf'] === false) return false
  const db = await database()
  return (await db.get(STORE, PASSKEY_RECORD)) === undefined && !(await db.get(STORE, OFFER_RECORD))
}

export async function declinePasskeyOffer(): Promise<void> {
  await (await database()).put(STORE, 'declined', OFFER_RECORD)
}

/** Removes the key from this device (both copies), and what was decided about passkeys with it. */
export async function forgetKey(): Promise<void> {
  const db = await database()
  await Promise.all([
    db.delete(STORE, RECORD),
    db.delete(STORE, PASSKEY_RECORD),
    db.delete(STORE, OFFER_RECORD),
  ])
}
