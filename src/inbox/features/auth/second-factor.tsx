import { useEffect, useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { supabase } from '../../lib/supabase-client'
import { ScreenHeading } from '../../components/screen-heading'
import { keyGroups } from './password-rules'

type Enrolment = { factorId: string; qrCode: string; secret: string; uri: string }

const AUTH_JS_SVG_PREFIX = 'data:image/svg+xml;utf-8,'

/**
 * The QR code as an image address. auth-js hands Auth's SVG over as `data:image/svg+xml;utf-8,`
 * followed by the markup unescaped, so a `#` in it (a colour such as `#000000`) ends the address
 * there and the browser shows a broken image; escaped, it draws whatever the SVG holds.
 */
export function qrCodeImage(qrCode: string): string {
  if (!qrCode.startsWith(AUTH_JS_SVG_PREFIX)) return qrCode
  const svg = qrCode.slice(AUTH_JS_SVG_PREFIX.length)
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

/**
 * The second factor: enrol TOTP the first time (QR code as Auth draws it; on a phone, the
 * otpauth:// link that opens the authenticator app, and the setup key in groups of four with
 * "Copy"), otherwise the code of the verified factor. Ends with an aal2 session.
 */
export function SecondFactor({ onVerified }: { onVerified: () => void }) {
  const [factorId, setFactorId] = useState<string | null>(null)
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [copied, setCopied] = useState<string | null>(null)

  async function copyKey(secret: string) {
    try {
      await navigator.clipboard.writeText(secret)
      setCopied(copy.code.copied)
    } catch {
      setCopied(copy.code.copyFailed)
    }
  }

  useEffect(() => {
    let cancelled = false
    void (async () => {
      const { data, error: failure } = await supabase.auth.mfa.listFactors()
      if (failure) return setError(copy.unexpected)
      const verified = data.totp[0]
      if (verified) return !cancelled && setFactorId(verified.id)
      // Leftovers of an enrolment never finished would block a new one: remove them first.
      for (const factor of data.all.filter((found) => found.status === 'unverified'))
        await supabase.auth.mfa.unenroll({ factorId: factor.id })
      const enrolled = await supabase.auth.mfa.enroll({ factorType: 'totp' })
      if (enrolled.error) return setError(copy.unexpected)
      if (cancelled) return
      setFactorId(enrolled.data.id)
      setEnrolment({
        factorId: enrolled.data.id,
        qrCode: enrolled.data.totp.qr_code,
        secret: enrolled.data.totp.secret,
        uri: enrolled.data.totp.uri,
      })
    })()
    return () => {
      cancelled = true
    }
  }, [])

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!factorId) return
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s/g, '')
    setBusy(true)
    setError(null)
    const { error: failure } = await supabase.auth.mfa.challengeAndVerify({ factorId, code })
    setBusy(false)
    if (!failure) return onVerified()
    console.error('inbox: verification failed', failure)
    setError(failure.status === 429 ? copy.signIn.tooMany : copy.code.wrong)
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="card" aria-labelledby="code-heading">
      <ScreenHeading id="code-heading">
        {enrolment ? copy.code.enrolHeading : copy.code.heading}
      </ScreenHeading>
      {enrolment && (
        <>
          <p>{copy.code.enrolLead}</p>
          <img
            src={qrCodeImage(enrolment.qrCode)}
            alt={copy.code.qrLabel}
            className="qr"
            width={200}
            height={200}
          />
          {/* On a phone the QR code is on the screen that should scan it: the app opens from
              the otpauth:// link instead, or takes the key pasted. */}
          <a className="button" href={enrolment.uri}>
            {copy.code.openApp}
          </a>
          <p>
            {copy.code.setupKey}:{' '}
            <code className="setup-key">
              {keyGroups(enrolment.secret).map((group, index) => (
                <span key={index}>{group}</span>
              ))}
            </code>
          </p>
          <p className="actions">
            <button type="button" onClick={() => void copyKey(enrolment.secret)}>
              {copy.code.copyKey}
            </button>
            <span role="status">{copied}</span>
          </p>
        </>
      )}
      <Field
        label={copy.code.field}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]{6,7}"
        required
      />
      {error && <p role="alert">{error}</p>}
      <button type="submit" disabled={busy || !factorId}>
        {copy.code.submit}
      </button>
    </form>
  )
}
