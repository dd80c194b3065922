import { useRef, useState } from 'react'
import { formCopy } from './contact-copy'
import type { SubmissionFields } from '../../shared/submission/fields'
import { checkAttachments } from '../../shared/submission/attachments'
import { attachedFilesCopy } from './attached-files-copy'
import {
  submitContact,
  type SealedDraft,
  type SlowStep,
  type SubmitDependencies,
  type SubmitResult,
} from './submit-contact'

/** The line under the button while a step of the submit is slow. */
const slowLines: Record<SlowStep, string> = {
  sealing: formCopy.stillEncrypting,
  sending: formCopy.stillSending,
}

/**
 * The draft on the form, from the first keystroke until it is sent: its id and what an earlier try
 * sealed (both reused by a retry, so a row the first try stored answers 409 rather than a second
 * row being stored), the files attached, and the line saying how far a submit has come.
 */
export function useDraft(dependencies: SubmitDependencies) {
  const draft = useRef<{ id: string; sealed?: SealedDraft; preloaded: boolean }>({
    id: '',
    preloaded: false,
  })
  const [files, setFiles] = useState<File[]>([])
  const [progress, setProgress] = useState<{ slow?: SlowStep; files?: string }>({})

  /**
   * Seals and sends the fields with the attached files. 'invalid-files' when the files break the
   * limits: nothing was sealed, and the attachments field says what is wrong.
   */
  const submit = async (fields: SubmissionFields): Promise<SubmitResult | 'invalid-files'> => {
    draft.current.id ||= crypto.randomUUID()
    const { id, sealed } = draft.current
    if (checkAttachments(files)) return 'invalid-files'
    let shown = ''
    try {
      const result = await submitContact(
        { fields, id, now: Date.now(), userAgent: navigator.userAgent, files, sealed },
        dependencies,
        {
          onSealed: (receipt, sealedFiles) => {
            draft.current.sealed = { receipt, files: sealedFiles }
          },
          onSlow: (slow) => setProgress((current) => ({ ...current, slow })),
          onFileProgress: (step, done, total) => {
            // Whole percents (or tenths of a megabyte): a live region must not chatter.
            const line =
              step === 'sealing'
                ? attachedFilesCopy.sealing(Math.floor((done / Math.max(total, 1)) * 100))
                : attachedFilesCopy.uploading(done, total)
            if (line !== shown) setProgress((current) => ({ ...current, files: (shown = line) }))
          },
        },
      )
      if (result.kind !== 'failed') {
        draft.current = { id: '', preloaded: draft.current.preloaded }
        setFiles([])
      }
      return result
    } finally {
      setProgress({})
    }
  }

  /** Fetches the sealer once, as the visitor starts on the form. */
  const preload = () => {
    if (draft.current.preloaded) return
    draft.current.preloaded = true
    dependencies.preload()
  }

  return {
    files,
    attach: (attached: File[]) => {
      setFiles(attached)
      if (attached.length > 0) dependencies.preloadFiles()
    },
    /** What the line under the button says while a submit runs. */
    progressLine: progress.files ?? (progress.slow ? slowLines[progress.slow] : ''),
    submit,
    preload,
  }
}
