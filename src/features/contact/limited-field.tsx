import type { ComponentProps } from 'react'
import { useWatch, type Control, type FieldError } from 'react-hook-form'
import { FormField } from '../../components/form-field'
import type { LimitedField as LimitedFieldName } from '../../shared/submission/fields'
import type { SubmissionFieldsInput } from '../../shared/submission/fields'
import { lengthNote } from './length-note'

/**
 * A required field with a length limit. Nothing typed or pasted is ever cut off: the control has
 * no `maxLength`; instead the field counts down near the limit and, past it, says so in the
 * schema's sentence (and the submit refuses it). It watches only its own value, so a keystroke
 * re-renders this field, not the form.
 */
export function LimitedField({
  control,
  name,
  id,
  label,
  error,
  children,
}: {
  control: Control<SubmissionFieldsInput>
  name: LimitedFieldName
  id: string
  label: string
  error: FieldError | undefined
  children: ComponentProps<typeof FormField>['children']
}) {
  const value = useWatch({ control, name })
  const note = lengthNote(name, value)
  // Past the limit the note already gives the schema's sentence; the error would repeat it.
  const repeated = note.over && error?.type === 'too_big'
  return (
    <FormField
      id={id}
      label={label}
      required
      error={repeated ? undefined : error?.message}
      note={note.text}
      noteIsProblem={note.over}
    >
      {children}
    </FormField>
  )
}
