import { useState, type RefObject } from 'react'
import { actionClasses } from '../../components/action-link'
import { attachmentsFieldCopy } from './attachments-copy'
import { AttachedFiles } from './attached-files'

/**
 * "Attachments (Optional)" under the brief: pick any files (several at once, or one after the
 * other); each is listed with its name, its size and a "Remove" button. Nothing picked is dropped:
 * past the limits the field says so in a sentence, and Send refuses until it is fixed. The files
 * stay in the page's memory until they are sealed. The browser's own picker ("No file chosen", even
 * beside listed files) is visually hidden but stays the focusable control; a label drawn as a button
 * opens it, and shows its focus ring.
 */
export function AttachmentsField({
  id,
  inputRef,
  files,
  onChange,
}: {
  id: string
  inputRef: RefObject<HTMLInputElement>
  files: readonly File[]
  onChange: (files: File[]) => void
}) {
  const [invalid, setInvalid] = useState(false)
  const hintId = `${id}-limits`
  const problemId = `${id}-problem`
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium text-text">
        {attachmentsFieldCopy.label}
      </label>
      <p id={hintId} className="text-sm text-muted">
        {attachmentsFieldCopy.limits}
      </p>
      <input
        ref={inputRef}
        id={id}
        type="file"
        multiple
        aria-describedby={`${hintId} ${problemId}`}
        aria-invalid={invalid}
        className="peer sr-only"
        onChange={(event) => {
          const picked = Array.from(event.target.files ?? [])
          // Cleared, so the same file can be picked again after a "Remove".
          event.target.value = ''
          if (picked.length) onChange([...files, ...picked])
        }}
      />
      <label
        htmlFor={id}
        className={`${actionClasses('secondary')} cursor-pointer justify-self-start peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-mint peer-disabled:cursor-not-allowed peer-disabled:opacity-60 peer-aria-[invalid=true]:border-danger`}
      >
        {files.length > 0 ? attachmentsFieldCopy.chooseMore : attachmentsFieldCopy.choose}
      </label>
      {files.length > 0 && (
        <AttachedFiles
          problemId={problemId}
          input={inputRef}
          files={files}
          onChange={onChange}
          onProblem={setInvalid}
        />
      )}
    </div>
  )
}
