import { useEffect, type RefObject } from 'react'
import {
  checkAttachments,
  formatBytes,
  type AttachmentProblem,
} from '../../shared/submission/attachments'
import { attachedFilesCopy } from './attached-files-copy'

/** The sentence for a problem with the attached files. */
export function attachmentProblemText(problem: AttachmentProblem): string {
  switch (problem.kind) {
    case 'too-many':
      return attachedFilesCopy.tooMany(problem.count)
    case 'too-large':
      return attachedFilesCopy.tooLarge(problem.name, problem.size)
    case 'empty':
      return attachedFilesCopy.empty(problem.name)
  }
}

/**
 * The files attached to the form, each with its name, its size and a "Remove" button, and, past
 * the limits, the sentence saying what is wrong (in the live region the picker is described by).
 */
export function AttachedFiles({
  problemId,
  input,
  files,
  onChange,
  onProblem,
}: {
  problemId: string
  input: RefObject<HTMLInputElement>
  files: readonly File[]
  onChange: (files: File[]) => void
  /** Told whether the files are past a limit, so the picker is marked invalid. */
  onProblem: (problem: boolean) => void
}) {
  const problem = checkAttachments(files)
  const past = problem !== null
  useEffect(() => {
    onProblem(past)
    return () => onProblem(false)
  }, [past, onProblem])
  return (
    <>
      <ul aria-label={attachedFilesCopy.listLabel} className="grid gap-2">
        {files.map((file, index) => (
          <li
            key={`${index}-${file.name}-${file.size}`}
            className="flex items-center justify-between gap-3 rounded-xl border border-line px-4 py-2 text-sm"
          >
            <span className="min-w-0 break-words">
              {file.name} <span className="text-muted">({formatBytes(file.size)})</span>
            </span>
            <button
              type="button"
              aria-label={attachedFilesCopy.removeLabel(file.name)}
              className="rounded-full border border-line px-3 py-1 text-text hover:border-mint focus-visible:outline-2 focus-visible:outline-mint"
              onClick={() => {
                onChange(files.filter((_, other) => other !== index))
                input.current?.focus()
              }}
            >
              {attachedFilesCopy.remove}
            </button>
          </li>
        ))}
      </ul>
      <p id={problemId} aria-live="polite" className="text-sm text-danger">
        {problem ? attachmentProblemText(problem) : ''}
      </p>
    </>
  )
}
