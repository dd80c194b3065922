import { useState } from 'react'
import { copy } from '../../content/copy'
import { CONVERSATION_FILES_BUCKET } from '../../../shared/conversation/reply-files'
import { ATTACHMENTS_BUCKET, formatBytes } from '../../../shared/submission/attachments'
import type { SealedAttachment } from '../../../shared/submission/sealed-document'
import type { FileDownloadOutcome } from '../../../shared/files/download-file-browser'
import { downloadAttachment } from './download-attachment'

type FileState = 'working' | FileDownloadOutcome

export function AttachmentList({
  attachments,
  identities,
}: {
  attachments: readonly SealedAttachment[]
  identities: readonly string[]
}) {
  return (
    <section className="attachments" aria-labelledby="attachments-heading">
      <h2 id="attachments-heading">{copy.attachments.heading}</h2>
      <FileList attachments={attachments} identities={identities} bucket={ATTACHMENTS_BUCKET} />
    </section>
  )
}

export function FileList({
  attachments,
  identities,
  bucket,
  label,
}: {
  attachments: readonly SealedAttachment[]
  identities: readonly string[]
  bucket: string
  label?: string
}) {
  const [states, setStates] = useState<Record<string, FileState>>({})
  const set = (object: string, state: FileState) =>
    setStates((current) => ({ ...current, [object]: state }))
  const words =
    bucket === CONVERSATION_FILES_BUCKET
      ? { ...copy.attachments, ...copy.attachments.reply }
      : copy.attachments

  async function download(attachment: SealedAttachment) {
    set(attachment.object, 'working')
    try {
      set(attachment.object, await downloadAttachment(attachment, identities, bucket))
    } catch (error) {
      console.error('inbox: attachment could not be opened', error)
      set(attachment.object, 'failed')
    }
  }

  return (
    <ul aria-label={label}>
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
            <p role="status">{state ? words[state] : ''}</p>
          </li>
        )
      })}
    </ul>
  )
}
