import { z } from 'zod'
import { BUDGET_VALUES, LIMITS, PROJECT_TYPE_VALUES } from './contact-fields'

export const FIELD_MESSAGES = {
  nameRequired: 'Enter your name or an alias.',
  contactRequired: 'Enter an email address, Telegram handle or WhatsApp number.',
  messageRequired: 'Tell us briefly about your project.',
  tooLong: (limit: number) => `Keep this under ${limit.toLocaleString('en-US')} characters.`,
  unknownOption: 'Choose one of the listed options.',
} as const

const requiredText = (limit: number, requiredMessage: string) =>
  z
    .string()
    .trim()
    .min(1, requiredMessage)
    .max(limit, FIELD_MESSAGES.tooLong(limit))

/** An optional dropdown: the empty choice is stored as null (spec §5). */
const optionalChoice = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .union([z.enum(values, FIELD_MESSAGES.unknownOption), z.literal('')])
    .nullable()
    .transform((value) => (value === '' || value === null ? null : value))

const projectTypes = PROJECT_TYPE_VALUES as [string, ...string[]]
const budgets = BUDGET_VALUES as unknown as [string, ...string[]]

/** What the visitor types. Parsing trims, and turns empty dropdowns into null. */
export const contactFormSchema = z.object({
  name: requiredText(LIMITS.name, FIELD_MESSAGES.nameRequired),
  contact: requiredText(LIMITS.contact, FIELD_MESSAGES.contactRequired),
  projectType: optionalChoice(projectTypes),
  budget: optionalChoice(budgets),
  message: requiredText(LIMITS.message, FIELD_MESSAGES.messageRequired),
})

/** The form's raw values, as the inputs hold them. */
export type ContactFormValues = z.input<typeof contactFormSchema>
export type ContactFormData = z.output<typeof contactFormSchema>

export const EMPTY_CONTACT_FORM: ContactFormValues = {
  name: '',
  contact: '',
  projectType: '',
  budget: '',
  message: '',
}

/**
 * The row sent to `contact_submissions`, exactly as it is queued and inserted. The id is made in the
 * browser so that a retried insert can never create a second row (a duplicate answers 409).
 */
export const contactSubmissionSchema = z.object({
  id: z.uuid(),
  name: requiredText(LIMITS.name, FIELD_MESSAGES.nameRequired),
  contact: requiredText(LIMITS.contact, FIELD_MESSAGES.contactRequired),
  project_type: z.enum(projectTypes, FIELD_MESSAGES.unknownOption).nullable(),
  budget: z.enum(budgets, FIELD_MESSAGES.unknownOption).nullable(),
  message: requiredText(LIMITS.message, FIELD_MESSAGES.messageRequired),
  user_agent: z.string().max(LIMITS.userAgent),
})

export type ContactSubmission = z.output<typeof contactSubmissionSchema>

/** Builds the row from validated form data; the user agent is cut to the column's limit. */
export function toSubmission(
  data: ContactFormData,
  context: { id: string; userAgent: string },
): ContactSubmission {
  return {
    id: context.id,
    name: data.name,
    contact: data.contact,
    project_type: data.projectType,
    budget: data.budget,
    message: data.message,
    user_agent: context.userAgent.slice(0, LIMITS.userAgent),
  }
}

/** Back from a row to what the form shows, for restoring a submission the backend refused. */
export function toFormValues(submission: ContactSubmission): ContactFormValues {
  return {
    name: submission.name,
    contact: submission.contact,
    projectType: submission.project_type ?? '',
    budget: submission.budget ?? '',
    message: submission.message,
  }
}
