/**
 * The contact submission's fields, option values and limits: one source for the form, the zod
 * schema and (by hand, proved by the pgTAP suite and a unit test that reads the migration) the
 * database's check constraints in `supabase/migrations`.
 */

export const PROJECT_TYPE_LABELS = [
  'Crypto/Web3 Launch',
  'Anonymous Marketing Campaign',
  'Community Building',
  'AI Automation Setup',
  'Payment Solutions',
  'Email/SMS Sequences',
  'Other',
] as const

/** Spec §3: the stored value is the lowercase label with spaces turned into hyphens. */
export function projectTypeValue(label: string): string {
  return label.toLowerCase().replace(/ /g, '-')
}

export const PROJECT_TYPE_OPTIONS = PROJECT_TYPE_LABELS.map((label) => ({
  value: projectTypeValue(label),
  label,
}))

export const BUDGET_OPTIONS = [
  { value: 'under-10k', label: 'Under $10K' },
  { value: '10k-25k', label: '$10K - $25K' },
  { value: '25k-50k', label: '$25K - $50K' },
  { value: '50k-100k', label: '$50K - $100K' },
  { value: '100k-plus', label: '$100K+' },
  { value: 'discuss', label: 'Prefer to discuss' },
] as const

export const PROJECT_TYPE_VALUES = PROJECT_TYPE_OPTIONS.map((option) => option.value)
export const BUDGET_VALUES = BUDGET_OPTIONS.map((option) => option.value)

/**
 * Length limits in characters. The spec leaves them open; these fit a name or alias, any email,
 * Telegram or WhatsApp handle, and a brief of a few pages. zod counts UTF-16 code units and
 * PostgreSQL counts code points, so the browser is never laxer than the database.
 */
export const LIMITS = {
  name: 120,
  contact: 200,
  message: 5000,
  userAgent: 512,
} as const
