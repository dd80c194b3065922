/**
 * Copy of the Secure Contact page (/contact). The form's own labels, placeholders, options and
 * messages belong to the contact feature's schema, not here.
 */

import { site } from './site'
import type { Four } from './types'

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

/** Under the form: a reply can also come sealed, on /replies, with the receipt Send gives. */
export const repliesNote = {
  text: 'A reply can also come here, sealed: after you send, you get a receipt that opens our answers and lets you write back.',
  linkLabel: 'Read a sealed reply',
} as const satisfies { text: string; linkLabel: string }
