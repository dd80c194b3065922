import type { Action } from './types'

/**
 * The key the form seals to, shown under the form and on /privacy so a careful visitor
 * can compare it with the one we give on another channel. The recipients themselves come from
 * configuration. Apart from contact-page.ts so that /privacy does not carry the contact page's copy.
 */
/**
 * Where the agency publishes its key's fingerprint in DNS (a TXT record): beside the site's own
 * name, so a visitor can look it up (`dig TXT _contact-key.<domain>`) without trusting the host.
 */
export const keyDnsName = (siteUrl: string) => `_contact-key.${new URL(siteUrl).hostname}`

export const sealingKey = {
  sealedTo: (count: number) => `Sealed in your browser to our ${count === 1 ? 'key' : 'keys'}`,
  fingerprintLabel: 'Key fingerprint',
  fingerprintHint: (dnsName: string) =>
    `Compare it with the fingerprint we publish away from this website: the pinned post of our Telegram channel, and the DNS TXT record of ${dnsName}. If they differ, do not send: tell us on Telegram.`,
  mismatch:
    'This page’s key does not match its own fingerprint, so the page may have been tampered with. Do not send: reach us on Telegram instead.',
  compare: (count: number) => `Show the full ${count === 1 ? 'key' : 'keys'} to compare`,
  compareHint:
    'The fingerprint is made from these keys: to check them one by one, ask us on Telegram or WhatsApp; they must match character for character. A tap or click selects one for copying.',
  missing:
    'This build has no encryption key, so the form cannot send. Reach us on Telegram or WhatsApp instead.',
  privacyLink: {
    label: 'What is encrypted, and what is not',
    target: { kind: 'page', to: '/privacy' },
  },
} as const satisfies {
  sealedTo: (count: number) => string
  fingerprintLabel: string
  fingerprintHint: (dnsName: string) => string
  mismatch: string
  compare: (count: number) => string
  compareHint: string
  missing: string
  privacyLink: Action
}
