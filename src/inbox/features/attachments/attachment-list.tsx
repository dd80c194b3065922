import { useState } from 'react'
import { copy } from '../../content/copy'
import { formatBytes } from '../../../shared/submission/attachments'
import type { SealedAttachment } from '../../../shared/submission/sealed-document'
import type { DownloadOutcome } from './download-attachment'

type FileState = 'working' | DownloadOutcome

/**
 * The files a visitor sealed with the inquiry: name, type and size, as the sealed document says
 * (nothing else knows them), each with "Download": fetched, opened and checked on this device.
 */
export function AttachmentList({
  attachments,
  identities,
}: {
  attachments: readonly SealedAttachment[]
  identities: readonly string[]
}) {
  const [states, setStates] = useState<Record<string, FileState>>({})
  const set = (object: string, state: FileState) =>
    setStates((current) => ({ ...current, [object]: state }))

  async function download(attachment: SealedAttachment) {
    set(attachment.object, 'working')
    try {
      const { downloadAttachment } = await import('./download-attachment')
      set(attachment.object, await downloadAttachment(attachment, identities))
    } catch (error) {
      console.error('inbox: attachment could not be opened', error)
      set(attachment.object, 'failed')
    }
  }

  return (
    <section className="attachments" aria-labelledby="attachments-heading">
      <h2 id="attachments-heading">{copy.attachments.heading}</h2>
      {attachments.length === 0 ? (
        <p>{copy.attachments.none}</p>
      ) : (
        <ul>
          {attachments.map((attachment) => {
            const state = states[attachment.object]
            return (
              <li key={attachment.object} data-testid="attachment">
                <span className="attachment-name">{attachment.name}</span>{' '}
                <span>
                  ({attachment.type || copy.attachments.noType}, {formatBytes(attachment.size)})
                </span>{' '}
                <button
                  type="button"
                  disabled={state === 'working'}
                  aria-label={copy.attachments.downloadLabel(attachment.name)}
                  onClick={() => void download(attachment)}
                >
                  {copy.attachments.download}
                </button>
                <p role="status">{state ? copy.attachments[state] : ''}</p>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
