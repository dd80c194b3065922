import { useEffect, useState, type FormEvent } from 'react'
import { copy } from '../copy'
import {
  hasSavedKey,
  KeyVaultError,
  MIN_PASSPHRASE_LENGTH,
  parseIdentities,
  saveKey,
  unlockKey,
} from './key-vault'

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
      setError(
        failure instanceof KeyVaultError
          ? failure.problem === 'not-a-key'
            ? copy.key.notAKey
            : copy.key.wrongPassphrase
          : copy.unexpected,
      )
    } finally {
      setBusy(false)
    }
  }

  function importKey(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const passphrase = String(form.get('passphrase') ?? '')
    if (passphrase.length < MIN_PASSPHRASE_LENGTH) return setError(copy.key.tooShort)
    if (passphrase !== String(form.get('repeat') ?? '')) return setError(copy.key.mismatch)
    void run(async () => {
      const identities = await parseIdentities(String(form.get('secret') ?? ''))
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
        <textarea name="secret" rows={3} spellCheck={false} autoComplete="off" required />
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
