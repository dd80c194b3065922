import { useEffect, useRef, useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { inboxEnv } from '../../lib/inbox-env'
import { ScreenHeading } from '../../components/screen-heading'
import { LinkThisDevice } from '../devices/link-this-device'
import {
  addPasskey,
  forgetKey,
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

type Saved = { key: boolean; passkey: boolean }

/**
 * The key, unlocked on this device. With a key saved here: the passkey first where this device
 * has a passkey copy (one tap), the passphrase as the fallback, and a way out for a forgotten
 * passphrase (remove the key). Without one: link this device from an unlocked one, or import the
 * key (pasted or a key file) once; either way it is then kept under this device's passphrase.
 * Hands the identities up; they live in memory only.
 */
export function KeyGate({
  onUnlocked,
}: {
  /** The identities, and a sentence for the list when something short of failing went wrong. */
  onUnlocked: (identities: string[], notice?: string) => void
}) {
  const [saved, setSaved] = useState<Saved | null>(null)
  const [linking, setLinking] = useState(false)
  // The key set received from another device, until it is saved under this device's passphrase.
  const [received, setReceived] = useState<string[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
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

  function saveUnderPassphrase(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const passphrase = String(form.get('passphrase') ?? '')
    const file = form.get('file')
    const given = String(form.get('secret') ?? '').trim() || (file instanceof File && file.size > 0)
    if (!received && !given) return setError(copy.key.noKeyGiven)
    if (passphrase.length < MIN_PASSPHRASE_LENGTH) return setError(copy.key.tooShort)
    if (passphrase !== String(form.get('repeat') ?? '')) return setError(copy.key.mismatch)
    const withPasskey = form.get('passkey') === 'on'
    void run(async (): Promise<string[] | [string[], string]> => {
      const identities = received ?? (await identitiesFrom(form))
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

  async function forget() {
    await forgetKey()
    setError(null)
    setNotice(copy.key.forgotten)
    setSaved({ key: false, passkey: false })
  }

  if (saved === null) return null
  const alert = error && <p role="alert">{error}</p>

  if (saved.key) {
    const passkeyFirst = saved.passkey && passkeysAvailable()
    const passphraseForm = (
      <form onSubmit={unlock} className="stack">
        <Field
          label={copy.key.passphrase}
          name="passphrase"
          type="password"
          autoComplete="current-password"
          required
        />
        <button type="submit" disabled={busy}>
          {copy.key.unlock}
        </button>
      </form>
    )
    return (
      <section className="card" aria-labelledby="unlock-heading">
        <ScreenHeading id="unlock-heading">{copy.key.unlockHeading}</ScreenHeading>
        {passkeyFirst ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void run(unlockWithPasskey)}
            >
              {copy.key.passkeyUnlock}
            </button>
            {alert}
            <details>
              <summary>{copy.key.usePassphrase}</summary>
              {passphraseForm}
            </details>
          </>
        ) : (
          <>
            {passphraseForm}
            {alert}
          </>
        )}
        <ForgetKey onForget={() => void forget()} />
      </section>
    )
  }

  if (linking && !received) {
    return (
      <LinkThisDevice
        onReceived={(identities) => {
          setReceived(identities)
          setLinking(false)
        }}
        onCancel={() => setLinking(false)}
      />
    )
  }

  return (
    <form onSubmit={saveUnderPassphrase} className="card" aria-labelledby="import-heading">
      <ScreenHeading id="import-heading">
        {received ? copy.key.keepHeading : copy.key.importHeading}
      </ScreenHeading>
      {notice && <p role="status">{notice}</p>}
      {received ? (
        <p>{copy.key.keepLead}</p>
      ) : (
        <>
          <p>{copy.key.linkInstead}</p>
          <button type="button" onClick={() => setLinking(true)}>
            {copy.devices.link}
          </button>
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
        </>
      )}
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

/** "Forgot your passphrase?": removes the key from this device, once confirmed. */
function ForgetKey({ onForget }: { onForget: () => void }) {
  const [asking, setAsking] = useState(false)
  // The button pressed goes with the question: the focus moves to the safe answer, not the page.
  const keep = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (asking) keep.current?.focus()
  }, [asking])
  if (!asking) {
    return (
      <button type="button" className="link" onClick={() => setAsking(true)}>
        {copy.key.forgotPassphrase}
      </button>
    )
  }
  return (
    <div className="confirm" role="group" aria-labelledby="forget-question">
      <p id="forget-question">{copy.key.forgetConfirm}</p>
      <div className="actions">
        <button type="button" className="danger" onClick={onForget}>
          {copy.key.forgetYes}
        </button>
        <button type="button" ref={keep} onClick={() => setAsking(false)}>
          {copy.key.forgetNo}
        </button>
      </div>
    </div>
  )
}
