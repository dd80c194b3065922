import { useState, type FormEvent } from 'react'
import { useBuildId } from '../../../shared/use-build-id'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-rules'
import { changePassword } from './session'

const PROBLEMS: Record<string, string> = {
  mismatch: copy.account.mismatch,
  'too-short': copy.account.tooShort(MIN_PASSWORD_LENGTH),
  'too-long': copy.account.tooLong,
  // Auth's refusals, by their code.
  insufficient_aal: copy.account.needsCode,
  weak_password: copy.account.tooShort(MIN_PASSWORD_LENGTH),
  validation_failed: copy.account.tooLong,
  same_password: copy.account.same,
}

function PasswordChange() {
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const password = String(form.get('new-password') ?? '')
    setBusy(true)
    setMessage(null)
    const problem =
      passwordProblem(password, String(form.get('repeat-password') ?? '')) ??
      (await changePassword(password))
    setBusy(false)
    if (problem) return setMessage({ text: PROBLEMS[problem] ?? copy.account.failed, failed: true })
    formElement.reset()
    setMessage({ text: copy.account.changed, failed: false })
  }

  return (
    <details>
      <summary>{copy.account.passwordHeading}</summary>
      <form onSubmit={(event) => void submit(event)} className="card">
        {(['new-password', 'repeat-password'] as const).map((name) => (
          <Field
            key={name}
            label={name === 'new-password' ? copy.account.newPassword : copy.account.repeatPassword}
            name={name}
            type="password"
            autoComplete="new-password"
            required
          />
        ))}
        {message && <p role={message.failed ? 'alert' : 'status'}>{message.text}</p>}
        <button type="submit" disabled={busy}>
          {copy.account.changePassword}
        </button>
      </form>
    </details>
  )
}

/** The build id of the inbox the host serves (src/shared/build-id.ts), to compare with the agency's list. */
function BuildId() {
  const buildId = useBuildId()
  if (buildId === undefined) return null
  return (
    <p className="hint">
      {copy.account.buildId}:{' '}
      <code data-testid="build-id">{buildId ?? copy.account.buildIdUnreadable}</code>
    </p>
  )
}

/** "Remove this device", after a sentence that says what goes. */
function RemoveDevice({ onRemove }: { onRemove: () => void }) {
  const [step, setStep] = useState<'idle' | 'confirming' | 'working'>('idle')
  return (
    <details>
      <summary>{copy.account.removeHeading}</summary>
      <div className="card">
        <p className="hint">{copy.account.removeHint}</p>
        {step === 'idle' && (
          <button type="button" className="sign-out" onClick={() => setStep('confirming')}>
            {copy.account.remove}
          </button>
        )}
        {step === 'confirming' && (
          <div role="alertdialog" aria-labelledby="remove-device-confirm">
            <p id="remove-device-confirm">{copy.account.removeConfirm}</p>
            <button
              type="button"
              className="sign-out"
              onClick={() => {
                setStep('working')
                onRemove()
              }}
            >
              {copy.account.removeConfirmButton}
            </button>
            <button type="button" onClick={() => setStep('idle')}>
              {copy.account.removeCancel}
            </button>
          </div>
        )}
        {step === 'working' && <p role="status">{copy.account.removing}</p>}
      </div>
    </details>
  )
}

/** Apart from "Lock" in the header: another place, another style. */
export function AccountPanel({
  aal2,
  onSignOut,
  onRemoveDevice,
}: {
  aal2: boolean
  onSignOut: (scope: 'local' | 'global') => void
  onRemoveDevice: () => void
}) {
  return (
    <section className="account" aria-labelledby="account-heading">
      <h2 id="account-heading">{copy.account.heading}</h2>
      {aal2 && <PasswordChange />}
      <p className="hint">{copy.account.signOutHint}</p>
      <button type="button" className="sign-out" onClick={() => onSignOut('local')}>
        {copy.signOut}
      </button>
      <p className="hint">{copy.account.signOutEverywhereHint}</p>
      <button type="button" className="sign-out" onClick={() => onSignOut('global')}>
        {copy.account.signOutEverywhere}
      </button>
      <RemoveDevice onRemove={onRemoveDevice} />
      <BuildId />
    </section>
  )
}
