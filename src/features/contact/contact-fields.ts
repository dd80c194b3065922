/**
 * The contact submission's option values, labels and limits: one source for the form, the zod
 * schema, and the sealed document staff decrypt. Option values are `as const` tuples so that
 * `project_type` and `budget` are unions, not strings.
 */

/** Spec §3: the stored value is the lowercase label with spaces turned into hyphens (tested). */
export const PROJECT_TYPE_VALUES = [
  'crypto/web3-launch',
  'anonymous-marketing-campaign',
  'community-building',
  'ai-automation-setup',
  'payment-solutions',
  'email/sms-sequences',
  'other',
] as const
export type ProjectType = (typeof PROJECT_TYPE_VALUES)[number]

const projectTypeLabels = {
  'crypto/web3-launch': 'Crypto/Web3 Launch',
  'anonymous-marketing-campaign': 'Anonymous Marketing Campaign',
  'community-building': 'Community Building',
  'ai-automation-setup': 'AI Automation Setup',
  'payment-solutions': 'Payment Solutions',
  'email/sms-sequences': 'Email/SMS Sequences',
  other: 'Other',
} as const satisfies Record<ProjectType, string>

export const BUDGET_VALUES = [
  'under-10k',
  '10k-25k',
  '25k-50k',
  '50k-100k',
  '100k-plus',
  'discuss',
] as const
export type Budget = (typeof BUDGET_VALUES)[number]

const budgetLabels = {
  'under-10k': 'Under $10K',
  '10k-25k': '$10K - $25K',
  '25k-50k': '$25K - $50K',
  '50k-100k': '$50K - $100K',
  '100k-plus': '$100K+',
  discuss: 'Prefer to discuss',
} as const satisfies Record<Budget, string>

/** The dropdowns' options, in the spec's order. */
export const PROJECT_TYPE_OPTIONS = PROJECT_TYPE_VALUES.map((value) => ({
  value,
  label: projectTypeLabels[value],
}))
export const BUDGET_OPTIONS = BUDGET_VALUES.map((value) => ({ value, label: budgetLabels[value] }))
export const PROJECT_TYPE_LABELS = PROJECT_TYPE_OPTIONS.map((option) => option.label)

/**
 * Length limits in characters. The spec leaves them open; these fit a name or alias, any email,
 * Telegram or WhatsApp handle, and a brief of a few pages. The database cannot check them any more
 * (it sees ciphertext only), so the sealed document's size bound in the migration follows from
 * them: 5,000 characters of 4-byte UTF-8 plus the rest still fit its armor limit.
 */
export const LIMITS = {
  name: 120,
  contact: 200,
  message: 5000,
  userAgent: 512,
} as const
