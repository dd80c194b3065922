/**
 * The inquiry's fields: option values and labels, length limits, and the one zod schema that
 * checks them. The public form validates with it, the sealed document (sealed-document.ts) is
 * built from its output, and whoever opens a document (the staff inbox, the CLI) checks it again
 * with it. Option values are `as const` tuples, so `project_type` and `budget` are unions.
 */
import { z } from '../zod'

/** Spec §3's project types, as the dropdown shows them, in its order. */
export const PROJECT_TYPE_LABELS = [
  'Crypto/Web3 Launch',
  'Anonymous Marketing Campaign',
  'Community Building',
  'AI Automation Setup',
  'Payment Solutions',
  'Email/SMS Sequences',
  'Other',
] as const

type Hyphenated<Text extends string> = Text extends `${infer Head} ${infer Tail}`
  ? `${Head}-${Hyphenated<Tail>}`
  : Text
/** Spec §3: the stored value is the lowercase label with spaces turned into hyphens. */
type OptionValue<Label extends string> = Lowercase<Hyphenated<Label>>
const optionValue = <Label extends string>(label: Label) =>
  label.toLowerCase().replaceAll(' ', '-') as OptionValue<Label>

export type ProjectType = OptionValue<(typeof PROJECT_TYPE_LABELS)[number]>
export const PROJECT_TYPE_VALUES = PROJECT_TYPE_LABELS.map(optionValue) as [
  ProjectType,
  ...ProjectType[],
]

/** Spec §3's budget ranges, value and label, in its order (string keys keep their order). */
const budgetLabels = {
  'under-10k': 'Under $10K',
  '10k-25k': '$10K - $25K',
  '25k-50k': '$25K - $50K',
  '50k-100k': '$50K - $100K',
  '100k-plus': '$100K+',
  discuss: 'Prefer to discuss',
} as const
export type Budget = keyof typeof budgetLabels
export const BUDGET_VALUES = Object.keys(budgetLabels) as [Budget, ...Budget[]]

/** The dropdowns' options, in the spec's order. */
export const PROJECT_TYPE_OPTIONS = PROJECT_TYPE_LABELS.map((label) => ({
  value: optionValue(label),
  label,
}))
export const BUDGET_OPTIONS = BUDGET_VALUES.map((value) => ({ value, label: budgetLabels[value] }))

/**
 * Length limits in characters (UTF-16 units, as zod counts them). The spec leaves them open; these
 * fit a name or alias, any email, Telegram or WhatsApp handle, and a brief of a few pages. The
 * database cannot check them (it sees ciphertext only), so the sealed row's size bound
 * (SEALED_MAX_CHARS) follows from them, proved by supabase/migrations.test.ts.
 */
export const LIMITS = {
  name: 120,
  contact: 200,
  message: 5000,
  userAgent: 512,
} as const

/** The fields with a limit a visitor can reach, and how their over-limit sentence names them. */
export type LimitedField = 'name' | 'contact' | 'message'
const fieldNouns: Record<LimitedField, string> = {
  name: 'name',
  contact: 'contact',
  message: 'brief',
}
/** A count as the page writes it: with thousands separators (6,000). */
const characters = (count: number) => count.toLocaleString('en-US')

/** What the form says beside a field that fails the schema. */
export const FIELD_MESSAGES = {
  nameRequired: 'Enter your name or an alias.',
  contactRequired: 'Enter an email address, Telegram handle or WhatsApp number.',
  messageRequired: 'Tell us briefly about your project.',
  /**
   * Text over a limit stays in the field whole (nothing is cut off); this says by how much, and
   * what to do. `length` counts after trimming, as the limit does.
   */
  tooLong: (field: LimitedField, length: number) =>
    `The ${fieldNouns[field]} is ${characters(length)} characters; the limit is ${characters(LIMITS[field])}: ${
      field === 'message' ? 'shorten it, or send the rest in a second message' : 'shorten it'
    }`,
  /** The count shown once a field nears its limit. */
  charactersLeft: (left: number) =>
    `${characters(left)} ${left === 1 ? 'character' : 'characters'} left`,
  unknownOption: 'Choose one of the listed options.',
} as const

const requiredText = (field: LimitedField, requiredMessage: string) =>
  z
    .string()
    .trim()
    .min(1, requiredMessage)
    .max(LIMITS[field], {
      // The check sees the trimmed text: the sentence gives the length the limit counts.
      error: (issue) => FIELD_MESSAGES.tooLong(field, String(issue.input).length),
    })

/** An optional dropdown: the empty choice becomes null (spec §5). */
const optionalChoice = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .union([z.enum(values, FIELD_MESSAGES.unknownOption), z.literal('')])
    .nullable()
    .transform((value) => value || null)

/**
 * The fields a visitor fills in, under the names the sealed document uses (and the old table's
 * columns), so nothing maps between the form, the document and the inbox. Parsing trims the text
 * and turns unchosen dropdowns into null.
 */
export const submissionFieldsSchema = z.object({
  name: requiredText('name', FIELD_MESSAGES.nameRequired),
  contact: requiredText('contact', FIELD_MESSAGES.contactRequired),
  project_type: optionalChoice(PROJECT_TYPE_VALUES),
  budget: optionalChoice(BUDGET_VALUES),
  message: requiredText('message', FIELD_MESSAGES.messageRequired),
})

/** What the inputs hold. */
export type SubmissionFieldsInput = z.input<typeof submissionFieldsSchema>
/** What validation gives: trimmed, dropdowns as unions or null. */
export type SubmissionFields = z.output<typeof submissionFieldsSchema>
