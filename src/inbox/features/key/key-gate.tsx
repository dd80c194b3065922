import { useEffect, useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { inboxEnv } from '../../lib/inbox-env'
import { ScreenHeading } from '../../components/screen-heading'
import {
  addPasskey,
  hasPasskey,
  hasSavedKey,
  KeyVaultError,
  MIN_PASSPHRASE_LENGTH,
  parseIdentities,
  passkeysAvailable,
  readKeyFile,
  saveKey,
  unlockKey,
  unlockWithPasskey,
} from './key-vault'

const KEY_PROBLEMS = {
  'not-a-key': copy.key.notAKey,
  'wrong-passphrase': copy.key.wrongPassphrase,
  'file-passphrase': copy.key.fileLocked,
  passkey: copy.key.passkeyFailed,
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
export function KeyGate({
  onUnlocked,
}: {
  /** The identities, and a sentence for the list when something short of failing went wrong. */
  onUnlocked: (identities: string[], notice?: string) => void
}) {
  const [saved, setSaved] = useState<{ key: boolean; passkey: boolean } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    void Promise.all([hasSavedKey(), hasPasskey()]).then(
      ([key, passkey]) => setSaved({ key, passkey }),
      () => setSaved({ key: false, passkey: false }),
    )
  }, [])

  async function run(action: () => Promise<string[] | [string[], string]>) {
    setBusy(true)
    setError(null)
    try {
      const result = await action()
      if (typeof result[0] === 'string') onUnlocked(result as string[])
      else onUnlocked(...(result as [string[], string]))
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
    const withPasskey = form.get('passkey') === 'on'
    void run(async (): Promise<string[] | [string[], string]> => {
      const identities = await identitiesFrom(form)
      await saveKey(identities, passphrase)
      if (!withPasskey) return identities
      // The key is saved and unlocked either way: a device without PRF passkeys is told so.
      return addPasskey(identities, copy.key.passkeyName(inboxEnv.agencyName)).then(
        () => identities,
        () => [identities, copy.key.passkeySetupFailed],
      )
    })
  }

  function unlock(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const passphrase = String(new FormData(event.currentTarget).get('passphrase') ?? '')
    void run(() => unlockKey(passphrase))
  }

  if (saved === null) return null
  const alert = error && <p role="alert">{error}</p>
  if (saved.key) {
    return (
      <form onSubmit={unlock} className="card" aria-labelledby="unlock-heading">
        <ScreenHeading id="unlock-heading">{copy.key.unlockHeading}</ScreenHeading>
        {saved.passkey && (
          <button type="button" disabled={busy} onClick={() => void run(unlockWithPasskey)}>
            {copy.key.passkeyUnlock}
          </button>
        )}
        <Field
          label={copy.key.passphrase}
          name="passphrase"
          type="password"
          autoComplete="current-password"
          required
        />
        {alert}
        <button type="submit" disabled={busy}>
          {copy.key.unlock}
        </button>
      </form>
    )
  }
  return (
    <form onSubmit={importKey} className="card" aria-labelledby="import-heading">
      <ScreenHeading id="import-heading">{copy.key.importHeading}</ScreenHeading>
      <p>{copy.key.importLead}</p>
      <label>
        {copy.key.secret}
        <textarea name="secret" rows={3} spellCheck={false} autoComplete="off" />
      </label>
      <Field label={copy.key.file} name="file" type="file" />
      <Field
        label={copy.key.filePassphrase}
        name="filePassphrase"
        type="password"
        autoComplete="off"
      />
      {(['passphrase', 'repeat'] as const).map((name) => (
        <Field
          key={name}
          label={copy.key[name]}
          name={name}
          type="password"
          autoComplete="new-password"
          required
        />
      ))}
      {passkeysAvailable() && (
        <label className="check">
          <input name="passkey" type="checkbox" />
          {copy.key.addPasskey}
        </label>
      )}
      {alert}
      <button type="submit" disabled={busy}>
        {copy.key.save}
      </button>
    </form>
  )
}
