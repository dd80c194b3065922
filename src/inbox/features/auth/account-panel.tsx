import { useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { supabase } from '../../lib/supabase-client'

/** supabase/config.toml `minimum_password_length`. */
export const MIN_PASSWORD_LENGTH = 12
/** bcrypt reads no further; Auth refuses longer passwords (in bytes, not characters). */
export const MAX_PASSWORD_BYTES = 72

/** What is wrong with a new password before Auth is asked, or null. */
export function passwordProblem(password: string, repeat: string): string | null {
  if (password !== repeat) return copy.account.mismatch
  if (password.length < MIN_PASSWORD_LENGTH) return copy.account.tooShort(MIN_PASSWORD_LENGTH)
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) return copy.account.tooLong
  return null
}

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
    if (problem) return setMessage({ text: problem, failed: true })
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
