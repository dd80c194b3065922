import type { InputHTMLAttributes } from 'react'

/** A labelled input: the label's text above the field, the whole label its accessible name. */
export function Field({
  label,
  ...input
}: { label: string; name: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label>
      {label}
      <input {...input} />
    </label>
  )
}
