import type { ReactNode } from 'react'

export const inputClasses =
  'block w-full rounded-xl border border-line bg-ink px-4 py-3 text-base text-text placeholder:text-muted/80 transition-colors hover:border-muted/50 focus:border-mint focus:outline-none focus-visible:outline-2 focus-visible:outline-mint aria-[invalid=true]:border-danger disabled:opacity-60'

/**
 * A labelled field with its error beside it. The control is passed as a render function so it gets
 * the ids that tie label, error and `aria-describedby` together. A field given a `note` (how much is
 * left, say) keeps a polite live region for it from the start, so screen readers hear it change.
 */
export function FormField({
  id,
  label,
  required = false,
  error,
  note,
  noteIsProblem = false,
  children,
}: {
  id: string
  label: string
  required?: boolean
  error?: string
  /** Text for the field's live region; undefined: the field has none. */
  note?: string
  /** The note says what is wrong (the field is invalid even before a submit). */
  noteIsProblem?: boolean
  children: (a11y: {
    id: string
    'aria-invalid': boolean
    'aria-describedby': string | undefined
  }) => ReactNode
}) {
  const errorId = `${id}-error`
  const noteId = `${id}-note`
  const describedBy = [error && errorId, note !== undefined && noteId].filter(Boolean).join(' ')
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium text-text">
        {label}
        {required && (
          <span aria-hidden="true" className="ml-1 text-mint">
            *
          </span>
        )}
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error) || noteIsProblem,
        'aria-describedby': describedBy || undefined,
      })}
      {error && (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      )}
      {note !== undefined && (
        <p
          id={noteId}
          aria-live="polite"
          className={`text-sm empty:-mt-2 ${noteIsProblem ? 'text-danger' : 'text-muted'}`}
        >
          {note}
        </p>
      )}
    </div>
  )
}
