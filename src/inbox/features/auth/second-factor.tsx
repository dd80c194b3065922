import { useEffect, useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { ScreenHeading } from '../../components/screen-heading'
import { keyGroups } from './password-rules'
import { totpFactor, verifyCode, type Factor } from './session'

const AUTH_JS_SVG_PREFIX = 'data:image/svg+xml;utf-8,'

/** auth-js hands Auth's SVG over unescaped: a `#` in it (a colour) would end the address. */
function qrCodeImage(qrCode: string): string {
  if (!qrCode.startsWith(AUTH_JS_SVG_PREFIX)) return qrCode
  const svg = qrCode.slice(AUTH_JS_SVG_PREFIX.length)
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

/**
 * TOTP: enrolled the first time, then asked for. On a phone the QR code is on the screen that
 * should scan it: the otpauth:// link opens the app instead, or the setup key is copied.
 */
export function SecondFactor() {
  const [factor, setFactor] = useState<Factor | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [copied, setCopied] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    void totpFactor().then((found) => {
      if (!live) return
      setFactor(found)
      if (found.kind === 'failed') setError(copy.unexpected)
    })
    return () => {
      live = false
    }
  }, [])

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!factor || factor.kind === 'failed') return
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s/g, '')
    setBusy(true)
    setError(null)
    const refusal = await verifyCode(factor.factorId, code)
    setBusy(false)
    if (refusal) setError(refusal === 'too-many' ? copy.signIn.tooMany : copy.code.wrong)
  }

  const enrolment = factor?.kind === 'enrol' ? factor : null
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
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard.writeText(enrolment.secret).then(
                  () => setCopied(copy.code.copied),
                  () => setCopied(copy.code.copyFailed),
                )
              }
            >
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
      <button type="submit" disabled={busy || !factor || factor.kind === 'failed'}>
        {copy.code.submit}
      </button>
    </form>
  )
}
