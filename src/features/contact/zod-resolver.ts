import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form'
import type { z } from 'zod'

/**
 * A react-hook-form resolver for a zod schema: the form submits the schema's parsed output (trimmed,
 * dropdowns as null) and shows the first message of each field that failed.
 */
export function zodResolver<Schema extends z.ZodType<unknown, FieldValues>>(
  schema: Schema,
): Resolver<z.input<Schema>, unknown, z.output<Schema>> {
  return async (values) => {
    const result = await schema.safeParseAsync(values)
    if (result.success) return { values: result.data as z.output<Schema> & FieldValues, errors: {} }

    const errors: Record<string, { type: string; message: string }> = {}
    for (const issue of result.error.issues) {
      const field = issue.path.join('.')
      if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message }
    }
    return { values: {}, errors: errors as FieldErrors<z.input<Schema>> }
  }
}
