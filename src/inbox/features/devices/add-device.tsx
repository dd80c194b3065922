import { useState, type FormEvent } from 'react'
import { copy } from '../../content/copy'
import { Field } from '../../components/field'
import { ScreenHeading } from '../../components/screen-heading'
import { fingerprintOf, linkCodeOf, sealKeySet } from './device-link'
import { recipientFor, sealLink } from './device-link-data'

/**
 * On an unlocked device: the linking code typed from the new device's screen; the one-time
 * recipient it names, checked against the code (the server cannot swap it unseen); the key set
 * sealed to it; then the comparison code, which the new device must show too.
 */
export function AddDevice({
  identities,
  code,
  onDone,
}: {
  identities: string[]
  /** The code from a scanned QR code (the new device's address with `?link=`), or ''. */
  code: string
  onDone: () => void
}) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [comparison, setComparison] = useState<string | null>(null)

  async function send(typed: string) {
    const fingerprint = fingerprintOf(typed)
    if (!fingerprint) return setError(copy.devices.notACode)
    setBusy(true)
    setError(null)
    try {
      const recipient = await recipientFor(fingerprint)
      if (!recipient) return setError(copy.devices.noSuchLink)
      if ((await linkCodeOf(recipient)).replaceAll(' ', '-') !== fingerprint) {
        console.error('inbox: the device link’s recipient does not match its code')
        return setError(copy.devices.wrongKey)
      }
      const sealed = await sealKeySet(identities, recipient)
      if (!(await sealLink(fingerprint, recipient, sealed.sealed)))
        return setError(copy.devices.noSuchLink)
      setComparison(sealed.comparison)
    } catch {
      setError(copy.devices.addFailed)
    } finally {
      setBusy(false)
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    void send(String(new FormData(event.currentTarget).get('code') ?? ''))
  }

  if (comparison) {
    return (
      <section className="card" aria-labelledby="sent-heading">
        <ScreenHeading id="sent-heading">{copy.devices.compareHeading}</ScreenHeading>
        <p>{copy.devices.sentLead}</p>
        <p className="comparison" data-testid="comparison-code">
          {comparison}
        </p>
        <button type="button" onClick={onDone}>
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
        defaultValue={code}
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
        <button type="button" onClick={onDone}>
          {copy.devices.cancel}
        </button>
      </div>
    </form>
  )
}
