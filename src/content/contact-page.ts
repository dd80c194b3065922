/**
 * Copy of the Secure Contact page (/contact). The form's own labels, placeholders, options and
 * messages belong to the contact feature's schema, not here.
 */

import { site } from './site'
import type { Action, Four } from './types'

export const contactIntro = {
  heading: site.secureContactLabel,
  blurb:
    'This site loads over an encrypted connection, with no trackers or third-party scripts. Only our team reads your brief.',
} as const satisfies { heading: string; blurb: string }

export const formCard = {
  title: 'Encrypted Contact Form',
  description: 'Tell us what you need. An alias is fine.',
} as const satisfies { title: string; description: string }

export const directContact = {
  title: 'Direct Contact',
  telegramLabel: site.telegramLabel,
  whatsappLabel: site.whatsappLabel,
  channelNote: 'Encrypted messaging',
} as const satisfies {
  title: string
  telegramLabel: string
  whatsappLabel: string
  channelNote: string
}

export const securityMeasures = {
  title: 'Security Measures',
  bullets: [
    'End-to-end encrypted communications',
    'No data retention after project completion',
    'Secure file transfer protocols',
    'Anonymous payment options available',
  ],
} as const satisfies { title: string; bullets: Four<string> }

export const responseTime = {
  value: '< 24hrs',
  label: 'Typical response time',
} as const satisfies { value: string; label: string }

export const formNote =
  'This form uses end-to-end encryption, and submissions are purged after project completion.'

/**
 * The key the form seals to (issue 8), shown under the form so a careful visitor can compare it
 * with the one we give on another channel. The recipients themselves come from configuration.
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
