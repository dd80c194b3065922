import { useState } from 'react'
import { copy } from '../../content/copy'
import { answerLink, firstMessage } from './channel-links'

export function AnswerLinks({
  contact,
  reference,
  agencyName,
}: {
  contact: string
  reference: string
  agencyName: string
}) {
  const [copied, setCopied] = useState(false)
  const link = answerLink(contact, firstMessage(agencyName, reference))
  if (!link) return <p>{copy.channels.none}</p>
  return (
    <>
      <p className="hint">{copy.channels.outsideSeal}</p>
      {link.copyText !== null && <p className="first-message">{link.copyText}</p>}
      <div className="actions">
        <a className="button" href={link.href} target="_blank" rel="noreferrer">
          {copy.channels[link.channel]}
        </a>
        {link.copyText !== null && (
          <button
            type="button"
            onClick={() =>
              // Where the clipboard is refused, the link still opens the chat to type it in.
              void navigator.clipboard.writeText(link.copyText ?? '').then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? copy.channels.copied : copy.channels.copyFirst}
          </button>
        )}
      </div>
    </>
  )
}
