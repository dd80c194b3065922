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
  atIpAddress,
  passkeysAvailable,
  readKeyFile,
  saveKey,
  unlockKey,
  unlockWithPasskey,
} from './key-vault'
import type { Unlocked } from './use-unlocked-key'

const KEY_PROBLEMS = {
  'not-a-key': copy.key.notAKey,
  'wrong-passphrase': copy.key.wrongPassphrase,
  'file-passphrase': copy.key.fileLocked,
  passkey: copy.key.passkeyFailed,
} as const

async function identitiesFrom(form: FormData): Promise<string[]> {
  const pasted = String(form.get('secret') ?? '').trim()
  if (pasted) return parseIdentities(pasted)
  const file = form.get('file')
  if (!(file instanceof File) || file.size === 0) throw new KeyVaultError('not-a-key')
  return readKeyFile(new Uint8Array(await file.arrayBuffer()), String(form.get('filePassphrase')))
}

async function keep(identities: string[], passphrase: string, withPasskey: boolean) {
  await saveKey(identities, passphrase)
  if (!withPasskey) return { identities }
  return addPasskey(identities, copy.key.passkeyName(inboxEnv.agencyName)).then(
    () => ({ identities }),
    () => ({ identities, notice: copy.key.passkeySetupFailed }),
  )
}

type Gate =
  | { phase: 'checking' }
  | { phase: 'unlock'; passkey: boolean }
  | { phase: 'import'; notice?: string }
  | { phase: 'linking' }
  | { phase: 'keep'; received: string[] }

/**
 * The key, unlocked on this device: the passkey first where it has a copy, else the passphrase;
 * without a key, link this device from an unlocked one or import the key, kept under a passphrase.
 */
export function KeyGate({ onUnlocked }: { onUnlocked: (unlocked: Unlocked) => void }) {
  const [gate, setGate] = useState<Gate>({ phase: 'checking' })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    void Promise.all([hasSavedKey(), hasPasskey()]).then(
      ([key, passkey]) => setGate(key ? { phase: 'unlock', passkey } : { phase: 'import' }),
      () => setGate({ phase: 'import' }),
    )
  }, [])

  async function run(action: () => Promise<Unlocked>) {
    setBusy(true)
    setError(null)
    try {
      onUnlocked(await action())
    } catch (failure) {
      if (!(failure instanceof KeyVaultError)) console.error('inbox: key', failure)
      setError(failure instanceof KeyVaultError ? KEY_PROBLEMS[failure.problem] : copy.unexpected)
      setBusy(false)
    }
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const passphrase = String(form.get('passphrase') ?? '')
    const file = form.get('file')
    const given = String(form.get('secret') ?? '').trim() || (file instanceof File && file.size > 0)
    const received = gate.phase === 'keep' ? gate.received : null
    if (!received && !given) return setError(copy.key.noKeyGiven)
    if (passphrase.length < MIN_PASSPHRASE_LENGTH) return setError(copy.key.tooShort)
    if (passphrase !== String(form.get('repeat') ?? '')) return setError(copy.key.mismatch)
    void run(async () =>
      keep(received ?? (await identitiesFrom(form)), passphrase, form.get('passkey') === 'on'),
    )
  }

  function unlock(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const passphrase = String(new FormData(event.currentTarget).get('passphrase') ?? '')
    void run(async () => ({ identities: await unlockKey(passphrase) }))
  }

  const alert = error && <p role="alert">{error}</p>
  if (gate.phase === 'checking') return null
  if (gate.phase === 'linking') {
    return (
      <LinkThisDevice
        onReceived={(received) => setGate({ phase: 'keep', received })}
        onCancel={() => setGate({ phase: 'import' })}
      />
    )
  }
  if (gate.phase === 'unlock') {
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
        {gate.passkey && passkeysAvailable() ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void run(async () => ({ identities: await unlockWithPasskey() }))}
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
        <ForgetKey
          onForget={() =>
            void forgetKey().then(() => {
              setError(null)
              setGate({ phase: 'import', notice: copy.key.forgotten })
            })
          }
        />
      </section>
    )
  }

  return (
    <form onSubmit={save} className="card" aria-labelledby="import-heading">
      <ScreenHeading id="import-heading">
        {gate.phase === 'keep' ? copy.key.keepHeading : copy.key.importHeading}
      </ScreenHeading>
      {gate.phase === 'import' && gate.notice && <p role="status">{gate.notice}</p>}
      {gate.phase === 'keep' ? (
        <p>{copy.key.keepLead}</p>
      ) : (
        <>
          <p>{copy.key.linkInstead}</p>
          <button type="button" onClick={() => setGate({ phase: 'linking' })}>
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
      {passkeysAvailable() ? (
        <label className="check">
          <input name="passkey" type="checkbox" />
          {copy.key.addPasskey}
        </label>
      ) : (
        atIpAddress(window.location.hostname) && (
          <p className="hint">{copy.key.passkeyNeedsName(window.location.port)}</p>
        )
      )}
      {alert}
      <button type="submit" disabled={busy}>
        {copy.key.save}
      </button>
    </form>
  )
}

function ForgetKey({ onForget }: { onForget: () => void }) {
  const [asking, setAsking] = useState(false)
  // The button pressed goes with the question: the focus moves to the safe answer, not the page.
  const keepButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (asking) keepButton.current?.focus()
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
        <button type="button" ref={keepButton} onClick={() => setAsking(false)}>
          {copy.key.forgetNo}
        </button>
      </div>
    </div>
  )
}
