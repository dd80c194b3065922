import { describe, expect, it } from 'vitest'
import {
  BUDGET_OPTIONS,
  FIELD_MESSAGES,
  LIMITS,
  PROJECT_TYPE_LABELS,
  PROJECT_TYPE_OPTIONS,
  submissionFieldsSchema as contactFormSchema,
} from './fields'
import { FILLED_FIELDS } from './submission-test-fixtures'

const filled = FILLED_FIELDS

describe('contact form schema', () => {
  it('trims the three required fields', () => {
    const data = contactFormSchema.parse({
      ...filled,
      name: '  Ada \n',
      contact: '\t@ada_l ',
      message: ' Hi ',
    })
    expect([data.name, data.contact, data.message]).toEqual(['Ada', '@ada_l', 'Hi'])
  })

  it('rejects whitespace-only required fields', () => {
    const result = contactFormSchema.safeParse({
      ...filled,
      name: '   ',
      contact: '\n',
      message: ' \t ',
    })
    expect(result.success).toBe(false)
    const fields = result.error?.issues.map((issue) => [issue.path[0], issue.code])
    expect(fields).toEqual([
      ['name', 'too_small'],
      ['contact', 'too_small'],
      ['message', 'too_small'],
    ])
    expect(result.error?.issues[0]?.message).toBe(FIELD_MESSAGES.nameRequired)
  })

  it('stores unchosen dropdowns as null', () => {
    const data = contactFormSchema.parse({ ...filled, project_type: '', budget: '' })
    expect(data.project_type).toBeNull()
    expect(data.budget).toBeNull()
  })

  it('accepts every listed option and refuses anything else', () => {
    for (const option of PROJECT_TYPE_OPTIONS) {
      expect(contactFormSchema.safeParse({ ...filled, project_type: option.value }).success).toBe(
        true,
      )
    }
    for (const option of BUDGET_OPTIONS) {
      expect(contactFormSchema.safeParse({ ...filled, budget: option.value }).success).toBe(true)
    }
    expect(
      contactFormSchema.safeParse({ ...filled, project_type: 'Crypto/Web3 Launch' }).success,
    ).toBe(false)
    expect(contactFormSchema.safeParse({ ...filled, budget: '1m-plus' }).success).toBe(false)
  })

  it('accepts text at each limit and refuses one character more', () => {
    for (const [field, limit] of [
      ['name', LIMITS.name],
      ['contact', LIMITS.contact],
      ['message', LIMITS.message],
    ] as const) {
      expect(
        contactFormSchema.safeParse({ ...filled, [field]: 'x'.repeat(limit) }).success,
        field,
      ).toBe(true)
      const over = contactFormSchema.safeParse({ ...filled, [field]: 'x'.repeat(limit + 1) })
      expect(over.success, field).toBe(false)
      expect(over.error?.issues[0]?.message).toBe(FIELD_MESSAGES.tooLong(field, limit + 1))
    }
  })

  it('says how long over-limit text is, trimmed, with thousands separators', () => {
    const message = (field: 'name' | 'contact' | 'message', text: string) =>
      contactFormSchema.safeParse({ ...filled, [field]: text }).error?.issues[0]?.message
    expect(message('message', ` ${'x'.repeat(6000)}\n`)).toBe(
      'The brief is 6,000 characters; the limit is 5,000: shorten it, or send the rest in a second message',
    )
    expect(message('name', 'x'.repeat(130))).toBe(
      'The name is 130 characters; the limit is 120: shorten it',
    )
    expect(message('contact', 'x'.repeat(1234))).toBe(
      'The contact is 1,234 characters; the limit is 200: shorten it',
    )
  })

  it('counts the limit after trimming', () => {
    expect(
      contactFormSchema.safeParse({ ...filled, name: ` ${'x'.repeat(LIMITS.name)} ` }).success,
    ).toBe(true)
  })
})

describe('option values', () => {
  it('stores project types as the lowercase label with spaces turned into hyphens', () => {
    expect(PROJECT_TYPE_OPTIONS.map((option) => option.value)).toEqual([
      'crypto/web3-launch',
      'anonymous-marketing-campaign',
      'community-building',
      'ai-automation-setup',
      'payment-solutions',
      'email/sms-sequences',
      'other',
    ])
    for (const [index, label] of PROJECT_TYPE_LABELS.entries()) {
      expect(PROJECT_TYPE_OPTIONS[index]?.value).toBe(label.toLowerCase().replaceAll(' ', '-'))
    }
  })

  it('keeps the spec budget values and labels', () => {
    expect(BUDGET_OPTIONS.map((option) => `${option.value} : ${option.label}`)).toEqual([
      'under-10k : Under $10K',
      '10k-25k : $10K - $25K',
      '25k-50k : $25K - $50K',
      '50k-100k : $50K - $100K',
      '100k-plus : $100K+',
      'discuss : Prefer to discuss',
    ])
  })
})
