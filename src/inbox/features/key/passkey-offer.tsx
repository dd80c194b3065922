import { useEffect, useState } from 'react'
import { copy } from '../../content/copy'
import { inboxEnv } from '../../lib/inbox-env'
import { addPasskey, declinePasskeyOffer, shouldOfferPasskey } from './key-vault'

/** Asked after a passphrase unlock until answered; "Not now" is remembered on this device. */
export function PasskeyOffer({ identities }: { identities: string[] }) {
  const [state, setState] = useState<'hidden' | 'offer' | 'busy' | 'done' | 'failed'>('hidden')

  useEffect(() => {
    let live = true
    void shouldOfferPasskey().then(
      (offer) => live && offer && setState('offer'),
      () => {},
    )
    return () => {
      live = false
    }
  }, [])

  if (state === 'hidden') return null
  if (state === 'done' || state === 'failed') {
    return (
      <p className="offer" role="status">
        {state === 'done' ? copy.key.offerDone : copy.key.passkeySetupFailed}
      </p>
    )
  }
  return (
    <section className="card offer" aria-labelledby="offer-heading">
      <h2 id="offer-heading">{copy.key.offerHeading}</h2>
      <p>{copy.key.offerLead}</p>
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={state === 'busy'}
          onClick={() => {
            setState('busy')
            addPasskey(identities, copy.key.passkeyName(inboxEnv.agencyName)).then(
              () => setState('done'),
              () => setState('failed'),
            )
          }}
        >
          {copy.key.offerYes}
        </button>
        <button
          type="button"
          disabled={state === 'busy'}
          onClick={() => {
            setState('hidden')
            void declinePasskeyOffer()
          }}
        >
          {copy.key.offerNo}
        </button>
      </div>
    </section>
  )
}
