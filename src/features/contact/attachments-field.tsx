import type { RefObject } from 'react'
import { inputClasses } from '../../components/form-field'
import {
  checkAttachments,
  formatBytes,
  type AttachmentProblem,
} from '../../shared/submission/attachments'
import { attachmentsCopy } from './attachments-copy'

/** The sentence for a problem with the attached files. */
export function attachmentProblemText(problem: AttachmentProblem): string {
  switch (problem.kind) {
    case 'too-many':
      return attachmentsCopy.tooMany(problem.count)
    case 'too-large':
      return attachmentsCopy.tooLarge(problem.name, problem.size)
    case 'empty':
      return attachmentsCopy.empty(problem.name)
  }
}

/**
 * "Attachments (Optional)" under the brief: pick any files (several at once, or one after the
 * other); each is listed with its name, its size and a "Remove" button. Nothing picked is dropped:
 * past the limits the field says so in a sentence, and Send refuses until it is fixed. The files
 * stay in the page's memory until they are sealed.
 */
export function AttachmentsField({
  id,
  inputRef: input,
  files,
  onChange,
}: {
  id: string
  inputRef: RefObject<HTMLInputElement>
  files: readonly File[]
  onChange: (files: File[]) => void
}) {
  const problem = checkAttachments(files)
  const hintId = `${id}-limits`
  const problemId = `${id}-problem`
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium text-text">
        {attachmentsCopy.label}
      </label>
      <p id={hintId} className="text-sm text-muted">
        {attachmentsCopy.limits}
      </p>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        aria-describedby={`${hintId} ${problemId}`}
        aria-invalid={problem !== null}
        className={`${inputClasses} file:mr-4 file:rounded-full file:border-0 file:bg-mint file:px-4 file:py-1 file:font-semibold file:text-on-accent`}
        onChange={(event) => {
          const picked = Array.from(event.target.files ?? [])
          // Cleared, so the same file can be picked again after a "Remove".
          event.target.value = ''
          if (picked.length) onChange([...files, ...picked])
        }}
      />
      {files.length > 0 && (
        <ul aria-label={attachmentsCopy.listLabel} className="grid gap-2">
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
                aria-label={attachmentsCopy.removeLabel(file.name)}
                className="rounded-full border border-line px-3 py-1 text-text hover:border-mint focus-visible:outline-2 focus-visible:outline-mint"
                onClick={() => {
                  onChange(files.filter((_, other) => other !== index))
                  input.current?.focus()
                }}
              >
                {attachmentsCopy.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p id={problemId} aria-live="polite" className="text-sm text-danger">
        {problem ? attachmentProblemText(problem) : ''}
      </p>
    </div>
  )
}
