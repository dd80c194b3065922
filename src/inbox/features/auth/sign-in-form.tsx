import { useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { supabase } from '../../lib/supabase-client'
import { ScreenHeading } from '../../components/screen-heading'

/** Email and password; the next step (second factor) is the app's to decide. */
export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    setError(null)
    const { error: failure } = await supabase.auth.signInWithPassword({
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    })
    setBusy(false)
    if (!failure) return onSignedIn()
    console.error('inbox: sign-in failed', failure)
    setError(failure.status === 429 ? copy.signIn.tooMany : copy.signIn.failed)
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="card"
      aria-labelledby="sign-in-heading"
    >
      <ScreenHeading id="sign-in-heading">{copy.signIn.heading}</ScreenHeading>
      <Field label={copy.signIn.email} name="email" type="email" autoComplete="username" required />
      <Field
        label={copy.signIn.password}
        name="password"
        type="password"
        autoComplete="current-password"
        required
      />
      {error && <p role="alert">{error}</p>}
      <button type="submit" disabled={busy}>
        {copy.signIn.submit}
      </button>
    </form>
  )
}
