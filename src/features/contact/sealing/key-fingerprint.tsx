import { useEffect, useState } from 'react'
import { SmartLink } from '../../../components/action-link'
import { ChannelIcon } from '../../../components/channel-icon'
import { keyDnsName, sealingKey } from '../../../content/sealing-key'
import { shortRecipient } from '../../../shared/crypto/recipients'
import { fingerprintIdOf, siteEnv, type SubmissionKeys } from '../../../lib/env'
import { keyFingerprint } from '../../../shared/submission/sealed-row'

/**
 * Whether the recipients the form seals to and the signing keys replies are checked with still give
 * the fingerprint the page shows: computed in the browser from those keys, so an edited key list
 * under an old fingerprint is caught.
 * Null until checked (and in the prerendered page).
 */
function useFingerprintHolds(keys: SubmissionKeys | null): boolean | null {
  const [holds, setHolds] = useState<boolean | null>(null)
  useEffect(() => {
    if (keys === null) return
    let current = true
    void fingerprintIdOf(keys.recipients, keys.signingKeys).then(
      (id) => current && setHolds(id === keys.fingerprintId),
    )
    return () => {
      current = false
    }
  }, [keys])
  return holds
}

/**
 * The key the form seals to, in the prerendered page itself (no script needed to read it): its
 * fingerprint, four groups of four characters to compare with the one the agency publishes away
 * from the web host, and the keys in full, selectable with one tap, for a careful visitor.
 */
export function KeyFingerprint({
  keys = siteEnv.submissionKeys,
  linkToPrivacy = true,
}: {
  keys?: SubmissionKeys | null
  /** Off on the privacy page itself. */
  linkToPrivacy?: boolean
}) {
  const holds = useFingerprintHolds(keys)
  if (keys === null) {
    return (
      <p className="mt-6 flex items-start gap-2 rounded-xl border border-line bg-ink p-4 text-sm text-muted">
        <ChannelIcon name="lock" className="mt-0.5 size-4 shrink-0 text-mint" />
        {sealingKey.missing}
      </p>
    )
  }

  const { recipients, signingKeys } = keys
  return (
    <div className="mt-6 rounded-xl border border-line bg-ink p-4 text-sm">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted">
        <ChannelIcon name="lock" className="size-4 shrink-0 text-mint" />
        <span>{sealingKey.sealedTo(recipients.length)}</span>
        {recipients.map((recipient) => (
          <code key={recipient} title={recipient} className="font-mono text-text">
            {shortRecipient(recipient)}
          </code>
        ))}
      </p>
      <p className="mt-3">
        <span className="text-muted">{sealingKey.fingerprintLabel}: </span>
        <code className="font-mono text-base tracking-wide text-text" data-key-fingerprint>
          {keyFingerprint(keys.fingerprintId)}
        </code>
      </p>
      <p className="mt-1 text-xs text-muted">
        {sealingKey.fingerprintHint(keyDnsName(siteEnv.siteUrl))}
      </p>
      {holds === false && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {sealingKey.mismatch}
        </p>
      )}
      <details className="mt-2">
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-muted hover:text-text">
          {sealingKey.compare(recipients.length)}
        </summary>
        <ul className="grid gap-2">
          {[...recipients, ...signingKeys].map((key) => (
            <li key={key}>
              <code className="block rounded-lg bg-surface-raised p-3 font-mono text-xs break-all text-text select-all">
                {key}
              </code>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-muted">{sealingKey.compareHint}</p>
      </details>
      {linkToPrivacy && (
        <SmartLink
          target={sealingKey.privacyLink.target}
          className="inline-flex min-h-11 items-center text-mint underline-offset-4 hover:underline"
        >
          {sealingKey.privacyLink.label}
        </SmartLink>
      )}
    </div>
  )
}
