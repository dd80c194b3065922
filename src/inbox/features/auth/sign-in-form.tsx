import { useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { inboxEnv } from '../../lib/inbox-env'
import { ScreenHeading } from '../../components/screen-heading'
import { signIn } from './session'
import { isInAppBrowser } from './trusted-session'

const inAppBrowser = () =>
  isInAppBrowser(
    navigator.userAgent,
    (navigator as Navigator & { standalone?: boolean }).standalone === true ||
      window.matchMedia('(display-mode: standalone)').matches,
  )

/** `method="post"` keeps a password out of any address even where no CSP is sent. */
export function SignInForm({ notice }: { notice?: string }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    setError(null)
    const refusal = await signIn(
      String(form.get('email') ?? ''),
      String(form.get('password') ?? ''),
      form.get('keep') === 'on',
    )
    setBusy(false)
    if (refusal) setError(refusal === 'too-many' ? copy.signIn.tooMany : copy.signIn.failed)
  }

  return (
    <form
      method="post"
      onSubmit={(event) => void submit(event)}
      className="card"
      aria-labelledby="sign-in-heading"
    >
      <ScreenHeading id="sign-in-heading">{copy.signIn.heading}</ScreenHeading>
      {inAppBrowser() && <p className="notice">{copy.signIn.inAppBrowser}</p>}
      {notice && <p className="notice">{notice}</p>}
      <Field label={copy.signIn.email} name="email" type="email" autoComplete="username" required />
      <Field
        label={copy.signIn.password}
        name="password"
        type="password"
        autoComplete="current-password"
        required
      />
      <label className="check">
        <input name="keep" type="checkbox" aria-describedby="keep-hint" />
        {copy.signIn.keepSignedIn}
      </label>
      <p id="keep-hint" className="hint">
        {copy.signIn.keepSignedInHint(inboxEnv.trustedSessionDays)}
      </p>
      {error && <p role="alert">{error}</p>}
      <button type="submit" disabled={busy}>
        {copy.signIn.submit}
      </button>
    </form>
  )
}
