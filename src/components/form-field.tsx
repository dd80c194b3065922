import type { ReactNode } from 'react'

export const inputClasses =
  'block w-full rounded-xl border border-line bg-ink px-4 py-3 text-base text-text placeholder:text-muted/80 transition-colors hover:border-muted/50 focus:border-mint focus:outline-none focus-visible:outline-2 focus-visible:outline-mint aria-[invalid=true]:border-danger disabled:opacity-60'

/**
 * A labelled field with its error beside it. The control is passed as a render function so it gets
 * the ids that tie label, error and `aria-describedby` together.
 */
export function FormField({
  id,
  label,
  required = false,
  error,
  children,
}: {
  id: string
  label: string
  required?: boolean
  error?: string
  children: (a11y: {
    id: string
    'aria-invalid': boolean
    'aria-describedby': string | undefined
  }) => ReactNode
}) {
  const errorId = `${id}-error`
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
        'aria-invalid': Boolean(error),
        'aria-describedby': error ? errorId : undefined,
      })}
      {error && (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  )
}
