import { armor, Decrypter, Encrypter, webauthn } from 'age-encryption'
import { readIdentityLines, recipientsOf } from '../../../shared/age-identity-lines'
import { deviceStore } from '../../lib/device-store'

/**
 * The agency's age identity on this device: stored only as age files (to the staff member's
 * passphrase, so `age -d` reads it too, and optionally to a passkey), in memory once unlocked.
 */

/**
 * scrypt's work factor (2^N): each offline guess at a copied device's passphrase costs an unlock.
 * 2^16 keeps an unlock on a slow phone within the bench's 2 s; age's default, 2^18, is 4x that.
 */
export const SCRYPT_LOG_N = 16
export const MIN_PASSPHRASE_LENGTH = 10

const vault = deviceStore('inbox-key', 'key')
const RECORD = 'agency'

export type KeyProblem = 'not-a-key' | 'wrong-passphrase' | 'file-passphrase' | 'passkey'

export class KeyVaultError extends Error {
  constructor(readonly problem: KeyProblem) {
    super(problem)
    this.name = 'KeyVaultError'
  }
}

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
  return (await vault.get(RECORD)) !== undefined
}

/** Encrypts the identities to the passphrase and keeps only that on the device. */
export async function saveKey(identities: string[], passphrase: string): Promise<void> {
  const encrypter = new Encrypter()
  encrypter.setPassphrase(passphrase)
  encrypter.setScryptWorkFactor(SCRYPT_LOG_N)
  const file = await encrypter.encrypt(identities.join('\n'))
  await vault.put(RECORD, file)
}

export async function unlockKey(passphrase: string): Promise<string[]> {
  const file = await vault.get<Uint8Array>(RECORD)
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
 * The passkey copy: the identities in a second age file, to a WebAuthn credential with PRF
 * (age's fido2prf recipient), beside the credential's identity string (not a secret).
 */
const PASSKEY_RECORD = 'passkey'
type PasskeyRecord = { credential: string; file: Uint8Array }

/** An IP address (127.0.0.1, [::1]): WebAuthn refuses to make or use passkeys there. */
export const atIpAddress = (hostname: string) =>
  /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[')

/**
 * Whether this browser can make passkeys here at all (PRF support shows only when one is made):
 * not at an IP address, which WebAuthn refuses whatever the device can do.
 */
export const passkeysAvailable = () =>
  typeof window !== 'undefined' &&
  typeof window.PublicKeyCredential === 'function' &&
  !atIpAddress(window.location?.hostname ?? '')

export async function hasPasskey(): Promise<boolean> {
  return (await vault.get(PASSKEY_RECORD)) !== undefined
}

export async function addPasskey(identities: string[], keyName: string): Promise<void> {
  try {
    const credential = await webauthn.createCredential({ keyName })
    const encrypter = new Encrypter()
    encrypter.addRecipient(new webauthn.WebAuthnRecipient({ identity: credential }))
    const file = await encrypter.encrypt(identities.join('\n'))
    await vault.put(PASSKEY_RECORD, { credential, file } satisfies PasskeyRecord)
  } catch (error) {
    console.error('inbox: passkey setup failed', error)
    throw new KeyVaultError('passkey')
  }
}

export async function unlockWithPasskey(): Promise<string[]> {
  const record = await vault.get<PasskeyRecord>(PASSKEY_RECORD)
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

/** Where the browser has PRF (or does not say), no passkey copy yet, and no "Not now" here. */
const OFFER_RECORD = 'passkey-offer'
export async function shouldOfferPasskey(): Promise<boolean> {
  if (!passkeysAvailable()) return false
  const capabilities = await (
    PublicKeyCredential as { getClientCapabilities?: () => Promise<Record<string, boolean>> }
  )
    .getClientCapabilities?.()
    .catch(() => undefined)
  if (capabilities && capabilities['extension:prf'] === false) return false
  return !(await vault.get(PASSKEY_RECORD)) && !(await vault.get(OFFER_RECORD))
}

export async function declinePasskeyOffer(): Promise<void> {
  await vault.put(OFFER_RECORD, 'declined')
}

/** Removes the key from this device (both copies), and what was decided about passkeys with it. */
export async function forgetKey(): Promise<void> {
  await vault.delete(RECORD, PASSKEY_RECORD, OFFER_RECORD)
}
