import { z } from '../../lib/zod'
import { BUDGET_VALUES, LIMITS, PROJECT_TYPE_VALUES } from './contact-fields'
import type { SubmissionDocument } from './sealing/seal-submission'

export const FIELD_MESSAGES = {
  nameRequired: 'Enter your name or an alias.',
  contactRequired: 'Enter an email address, Telegram handle or WhatsApp number.',
  messageRequired: 'Tell us briefly about your project.',
  tooLong: (limit: number) => `Keep this under ${limit.toLocaleString('en-US')} characters.`,
  unknownOption: 'Choose one of the listed options.',
} as const

const requiredText = (limit: number, requiredMessage: string) =>
  z.string().trim().min(1, requiredMessage).max(limit, FIELD_MESSAGES.tooLong(limit))

/** An optional dropdown: the empty choice becomes null (spec §5). */
const optionalChoice = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .union([z.enum(values, FIELD_MESSAGES.unknownOption), z.literal('')])
    .nullable()
    .transform((value) => value || null)

/**
 * The one shape of a contact submission. Its keys are the sealed document's (and the old table's
 * columns), and the form's field names, so nothing maps between them. Parsing trims the text and
 * turns unchosen dropdowns into null.
 */
export const contactSubmissionSchema = z.object({
  name: requiredText(LIMITS.name, FIELD_MESSAGES.nameRequired),
  contact: requiredText(LIMITS.contact, FIELD_MESSAGES.contactRequired),
  project_type: optionalChoice(PROJECT_TYPE_VALUES),
  budget: optionalChoice(BUDGET_VALUES),
  message: requiredText(LIMITS.message, FIELD_MESSAGES.messageRequired),
})

/** What the inputs hold. */
export type ContactFormValues = z.input<typeof contactSubmissionSchema>
/** What validation gives: trimmed, dropdowns as unions or null. */
export type ContactFields = z.output<typeof contactSubmissionSchema>

export const EMPTY_CONTACT_FORM: ContactFormValues = {
  name: '',
  contact: '',
  project_type: '',
  budget: '',
  message: '',
}

/**
 * Builds the plaintext document the sealer encrypts (team contract "Sealed submission"; the sealer
 * adds `v` and the padding) from validated fields. `id` is made once per draft (crypto.randomUUID) and
 * kept across retries: the database refuses a second row with the same id (409), which the client
 * reads as "already received".
 */
export function buildDocument(
  fields: ContactFields,
  context: { id: string; now: number; userAgent: string },
): SubmissionDocument {
  return {
    id: context.id,
    ...fields,
    user_agent: context.userAgent.slice(0, LIMITS.userAgent),
    submitted_at: new Date(context.now).toISOString(),
  }
}
