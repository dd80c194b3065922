import { useEffect, useState, type FormEvent } from 'react'
import { useNavigate, useParams } from 'react-router-dom'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { ScreenHeading } from '../../components/screen-heading'
import { fingerprintOf, linkCodeOf, sealKeySet } from './device-link'
import { recipientFor, sealLink } from './device-link-data'

/**
 * The unlocked device: the key set sealed to the one-time recipient the linking code names, once
 * checked against the code, so the server cannot swap it unseen (see device-link.ts).
 */
export function AddDevice({ identities }: { identities: string[] }) {
  const navigate = useNavigate()
  const { code } = useParams()
  const [scanned] = useState(() => (code && fingerprintOf(code)?.replaceAll('-', ' ')) ?? '')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [comparison, setComparison] = useState<string | null>(null)
  useEffect(() => {
    if (code) navigate('/devices/add', { replace: true })
  }, [code, navigate])

  async function send(fingerprint: string) {
    const recipient = await recipientFor(fingerprint)
    if (recipient === null) return setError(copy.devices.addFailed)
    if (recipient === '') return setError(copy.devices.noSuchLink)
    if ((await linkCodeOf(recipient)).replaceAll(' ', '-') !== fingerprint) {
      console.error('inbox: the device link’s recipient does not match its code')
      return setError(copy.devices.wrongKey)
    }
    const sealed = await sealKeySet(identities, recipient)
    const stored = await sealLink(fingerprint, recipient, sealed.sealed)
    if (stored === 'sealed') setComparison(sealed.comparison)
    else setError(stored === 'gone' ? copy.devices.noSuchLink : copy.devices.addFailed)
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const fingerprint = fingerprintOf(String(new FormData(event.currentTarget).get('code') ?? ''))
    if (!fingerprint) return setError(copy.devices.notACode)
    setBusy(true)
    setError(null)
    void send(fingerprint)
      .catch(() => setError(copy.devices.addFailed))
      .finally(() => setBusy(false))
  }

  const done = () => navigate('/')
  if (comparison) {
    return (
      <section className="card" aria-labelledby="sent-heading">
        <ScreenHeading id="sent-heading">{copy.devices.compareHeading}</ScreenHeading>
        <p>{copy.devices.sentLead}</p>
        <p className="comparison" data-testid="comparison-code">
          {comparison}
        </p>
        <button type="button" onClick={done}>
          {copy.devices.done}
        </button>
      </section>
    )
  }
  return (
    <form onSubmit={submit} className="card" aria-labelledby="add-heading">
      <ScreenHeading id="add-heading">{copy.devices.addHeading}</ScreenHeading>
      <p>{copy.devices.addLead}</p>
      <Field
        label={copy.devices.code}
        name="code"
        defaultValue={scanned}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
      />
      {error && <p role="alert">{error}</p>}
      <div className="actions">
        <button type="submit" disabled={busy}>
          {copy.devices.addSubmit}
        </button>
        <button type="button" onClick={done}>
          {copy.devices.cancel}
        </button>
      </div>
    </form>
  )
}
