import { SmartLink } from '../../../components/action-link'
import { ChannelIcon } from '../../../components/channel-icon'
import { sealingKey } from '../../../content/sealing-key'
import { shortRecipient } from '../../../lib/age-recipient'
import { siteEnv, type SubmissionKeys } from '../../../lib/env'

/**
 * The key the form seals to, in the prerendered page itself (no script needed to read it): short
 * enough to glance at, and in full, selectable with one tap, so a careful visitor can compare it
 * with the key we give on another channel before trusting the form.
 */
export function KeyFingerprint({
  keys = siteEnv.submissionKeys,
  linkToPrivacy = true,
}: {
  keys?: SubmissionKeys | null
  /** Off on the privacy page itself. */
  linkToPrivacy?: boolean
}) {
  if (keys === null) {
    return (
      <p className="mt-6 flex items-start gap-2 rounded-xl border border-line bg-ink p-4 text-sm text-muted">
        <ChannelIcon name="lock" className="mt-0.5 size-4 shrink-0 text-mint" />
        {sealingKey.missing}
      </p>
    )
  }

  const { recipients } = keys
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
      <details className="mt-2">
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-muted hover:text-text">
          {sealingKey.compare(recipients.length)}
        </summary>
        <ul className="grid gap-2">
          {recipients.map((recipient) => (
            <li key={recipient}>
              <code className="block rounded-lg bg-surface-raised p-3 font-mono text-xs break-all text-text select-all">
                {recipient}
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
