import {
  FIELD_MESSAGES,
  LIMITS,
  submissionFieldsSchema,
  type LimitedField,
} from '../../shared/submission/fields'

/** From this share of its limit on, a field says how much is left. */
export const NEAR_LIMIT_SHARE = 0.8

/**
 * What a limited field says under itself about its length: nothing while it is short, how many
 * characters are left once it nears the limit, and past the limit the schema's own sentence (the
 * one the submit and the outbox's re-validation give), so every part of the site says the same.
 * Lengths count after trimming, as the limit does.
 */
export function lengthNote(field: LimitedField, value: string): { text: string; over: boolean } {
  const limit = LIMITS[field]
  const length = value.trim().length
  if (length > limit) {
    const issue = submissionFieldsSchema.shape[field]
      .safeParse(value)
      .error?.issues.find((found) => found.code === 'too_big')
    return { text: issue?.message ?? FIELD_MESSAGES.tooLong(field, length), over: true }
  }
  if (length < limit * NEAR_LIMIT_SHARE) return { text: '', over: false }
  return { text: FIELD_MESSAGES.charactersLeft(limit - length), over: false }
}
