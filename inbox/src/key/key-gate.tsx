import { useEffect, useState, type FormEvent } from 'react'
import { copy } from '../copy'
import {
  hasSavedKey,
  KeyVaultError,
  MIN_PASSPHRASE_LENGTH,
  parseIdentities,
  readKeyFile,
  saveKey,
  unlockKey,
} from './key-vault'

const KEY_PROBLEMS = {
  'not-a-key': copy.key.notAKey,
  'wrong-passphrase': copy.key.wrongPassphrase,
  'file-passphrase': copy.key.fileLocked,
} as const

/** The identities from what was pasted, else from the key file (plain or encrypted with age -p). */
async function identitiesFrom(form: FormData): Promise<string[]> {
  const pasted = String(form.get('secret') ?? '').trim()
  if (pasted) return parseIdentities(pasted)
  const file = form.get('file')
  if (!(file instanceof File) || file.size === 0) throw new KeyVaultError('not-a-key')
  return readKeyFile(new Uint8Array(await file.arrayBuffer()), String(form.get('filePassphrase')))
}

/**
 * The key, unlocked on this device: imported once (pasted, then encrypted to a passphrase), later
 * unlocked with the passphrase. Hands the identities up; they live in memory only.
 */
export function KeyGate({ onUnlocked }: { onUnlocked: (identities: string[]) => void }) {
  const [saved, setSaved] = useState<boolean | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    void hasSavedKey().then(setSaved, () => setSaved(false))
  }, [])

  async function run(action: () => Promise<string[]>) {
    setBusy(true)
    setError(null)
    try {
      onUnlocked(await action())
    } catch (failure) {
      if (!(failure instanceof KeyVaultError)) console.error('inbox: key', failure)
      setError(failure instanceof KeyVaultError ? KEY_PROBLEMS[failure.problem] : copy.unexpected)
    } finally {
      setBusy(false)
    }
  }

  function importKey(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const passphrase = String(form.get('passphrase') ?? '')
    const file = form.get('file')
    if (!String(form.get('secret') ?? '').trim() && !(file instanceof File && file.size > 0))
      return setError(copy.key.noKeyGiven)
    if (passphrase.length < MIN_PASSPHRASE_LENGTH) return setError(copy.key.tooShort)
    if (passphrase !== String(form.get('repeat') ?? '')) return setError(copy.key.mismatch)
    void run(async () => {
      const identities = await identitiesFrom(form)
      await saveKey(identities, passphrase)
      return identities
    })
  }

  function unlock(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const passphrase = String(new FormData(event.currentTarget).get('passphrase') ?? '')
    void run(() => unlockKey(passphrase))
  }

  if (saved === null) return null
  const alert = error && <p role="alert">{error}</p>
  if (saved) {
    return (
      <form onSubmit={unlock} className="card" aria-labelledby="unlock-heading">
        <h1 id="unlock-heading">{copy.key.unlockHeading}</h1>
        <label>
          {copy.key.passphrase}
          <input name="passphrase" type="password" autoComplete="current-password" required />
        </label>
        {alert}
        <button type="submit" disabled={busy}>
          {copy.key.unlock}
        </button>
      </form>
    )
  }
  return (
    <form onSubmit={importKey} className="card" aria-labelledby="import-heading">
      <h1 id="import-heading">{copy.key.importHeading}</h1>
      <p>{copy.key.importLead}</p>
      <label>
        {copy.key.secret}
        <textarea name="secret" rows={3} spellCheck={false} autoComplete="off" />
      </label>
      <label>
        {copy.key.file}
        <input name="file" type="file" />
      </label>
      <label>
        {copy.key.filePassphrase}
        <input name="filePassphrase" type="password" autoComplete="off" />
      </label>
      <label>
        {copy.key.passphrase}
        <input name="passphrase" type="password" autoComplete="new-password" required />
      </label>
      <label>
        {copy.key.repeat}
        <input name="repeat" type="password" autoComplete="new-password" required />
      </label>
      {alert}
      <button type="submit" disabled={busy}>
        {copy.key.save}
      </button>
    </form>
  )
}
