import { useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { supabase } from '../../lib/supabase-client'
import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-rules'

const PROBLEMS = {
  mismatch: copy.account.mismatch,
  'too-short': copy.account.tooShort(MIN_PASSWORD_LENGTH),
  'too-long': copy.account.tooLong,
} as const

const REFUSALS: Record<string, string> = {
  insufficient_aal: copy.account.needsCode,
  weak_password: copy.account.tooShort(MIN_PASSWORD_LENGTH),
  validation_failed: copy.account.tooLong,
  same_password: copy.account.same,
}

/** A new password for the account (at aal2, as Auth requires once a second factor is set). */
function PasswordChange() {
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const password = String(form.get('new-password') ?? '')
    const problem = passwordProblem(password, String(form.get('repeat-password') ?? ''))
    if (problem) return setMessage({ text: PROBLEMS[problem], failed: true })
    setBusy(true)
    setMessage(null)
    const { error } = await supabase.auth.updateUser({ password })
    setBusy(false)
    if (!error) {
      formElement.reset()
      return setMessage({ text: copy.account.changed, failed: false })
    }
    console.error('inbox: password change failed', error)
    setMessage({ text: REFUSALS[error.code ?? ''] ?? copy.account.failed, failed: true })
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

/**
 * The account's own section at the foot of the page, apart from "Lock" (in the header): sign out
 * here, sign out everywhere (every session of the account), and, at aal2, change the password.
 */
export function AccountPanel({
  aal2,
  onSignOut,
}: {
  aal2: boolean
  onSignOut: (scope: 'local' | 'global') => void
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
    </section>
  )
}
