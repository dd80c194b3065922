import { useState, useSyncExternalStore, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { inboxEnv } from '../../lib/inbox-env'
import { sessionStore, supabase } from '../../lib/supabase-client'
import { ScreenHeading } from '../../components/screen-heading'
import { isInAppBrowser } from './trusted-session'

/** Whether this page runs as the installed inbox (its own storage is the browser's). */
function standalone(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true
  return iosStandalone || window.matchMedia('(display-mode: standalone)').matches
}

/** The browser's user agent and display mode do not change while the page lives. */
const unchanging = () => () => {}

/**
 * Email and password, and whether this device keeps the session ("Keep me signed in on this
 * device", off unless ticked); the next step (second factor) is the app's to decide. `notice`
 * says why a session ended, when one did.
 *
 * "Sign in" is disabled until `ready`: the first screen is prerendered and painted before the app
 * runs (app/boot.ts), and a submit the app cannot take would go to the browser, which the CSP's
 * `form-action 'none'` refuses (a violation, and nothing for the person). Typing meanwhile is
 * fine: the fields are the browser's own until the submit reads them. A disabled default button
 * also stops Enter from submitting; and `method="post"` keeps a password out of any address even
 * where no CSP is sent.
 */
export function SignInForm({
  onSignedIn,
  notice,
  ready,
}: {
  onSignedIn: () => void
  notice?: string
  /** The app runs and knows this visit has no session: a submit is taken. */
  ready: boolean
}) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // The prerendered first screen (built where there is no browser) says nothing; hydration then
  // reads the browser, and the sentence appears where it applies.
  const inAppBrowser = useSyncExternalStore(
    unchanging,
    () => isInAppBrowser(navigator.userAgent, standalone()),
    () => false,
  )

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    setError(null)
    // Where the session this sign-in starts is kept: this tab, or this device.
    sessionStore.choose(form.get('keep') === 'on' ? 'device' : 'tab')
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
      method="post"
      onSubmit={(event) => void submit(event)}
      className="card"
      aria-labelledby="sign-in-heading"
    >
      <ScreenHeading id="sign-in-heading">{copy.signIn.heading}</ScreenHeading>
      {inAppBrowser && <p className="notice">{copy.signIn.inAppBrowser}</p>}
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
      <button type="submit" disabled={busy || !ready}>
        {copy.signIn.submit}
      </button>
    </form>
  )
}
