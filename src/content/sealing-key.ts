import type { Action } from './types'

/**
 * The key the form seals to (issue 8), shown under the form and on /privacy so a careful visitor
 * can compare it with the one we give on another channel. The recipients themselves come from
 * configuration. Apart from contact-page.ts so that /privacy does not carry the contact page's copy.
 */
export const sealingKey = {
  sealedTo: (count: number) => `Sealed in your browser to our ${count === 1 ? 'key' : 'keys'}`,
  compare: (count: number) => `Show the full ${count === 1 ? 'key' : 'keys'} to compare`,
  compareHint:
    'Ask us for our key on Telegram or WhatsApp: it must match character for character. A tap or click selects it for copying.',
  missing:
    'This build has no encryption key, so the form cannot send. Reach us on Telegram or WhatsApp instead.',
  privacyLink: {
    label: 'What is encrypted, and what is not',
    target: { kind: 'page', to: '/privacy' },
  },
} as const satisfies {
  sealedTo: (count: number) => string
  compare: (count: number) => string
  compareHint: string
  missing: string
  privacyLink: Action
}
