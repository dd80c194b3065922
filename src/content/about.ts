import { siteEnv } from '../lib/env'
import type { CallToAction, CoreValue, Four, Stat } from './types'

export const aboutIntro = {
  heading: `About ${siteEnv.agencyName}`,
  lead: 'A small senior team that grows crypto, Web3 and high-risk brands without putting anyone in the spotlight, ourselves included.',
} as const satisfies { heading: string; lead: string }

export const founderStory = {
  heading: "The Founder's Story",
  paragraphs: [
    'Our founder spent a decade running performance campaigns for brands that mainstream agencies would not touch: early token projects, offshore gaming, supplements and fintech. The work was good. The agencies around it were loud.',
    `Clients kept asking for the same two things: results they could measure, and no public trail linking them to their marketing. ${siteEnv.agencyName} was built to deliver both.`,
    '"The best campaign is one nobody can trace back to you, and everyone can see in your numbers," as our founder puts it. "We measure ourselves by revenue, not by mentions."',
    'Today a small senior team works every account directly. We take on a limited number of clients at a time, and no client name ever appears in our portfolio.',
  ],
} as const satisfies { heading: string; paragraphs: readonly string[] }

export const coreValues = [
  {
    icon: 'eye-off',
    title: 'Secrecy',
    description:
      'Client identities, budgets and results stay confidential. We never name a client, publicly or privately.',
  },
  {
    icon: 'target',
    title: 'Precision',
    description:
      'Every campaign starts with a measurable goal and is tuned against it weekly, not when a report is due.',
  },
  {
    icon: 'handshake',
    title: 'Trust',
    description: 'Plain pricing, honest forecasts and direct access to the people doing the work.',
  },
  {
    icon: 'chart',
    title: 'Data',
    description:
      'Decisions follow the numbers. We track what matters and share the raw figures with you.',
  },
] as const satisfies Four<CoreValue>

export const aboutStats = [
  { value: '$50M+', label: 'Revenue generated for clients' },
  { value: '500K+', label: 'Community members built' },
  { value: '98%', label: 'Campaign success rate' },
  { value: '24/7', label: 'Support availability' },
] as const satisfies Four<Stat>

/** The link is an `email` target: `action-link.tsx` turns it into a mailto: for `site.founderEmail`. */
export const founderContact = {
  heading: 'Speak to Our Founder',
  body: 'For sensitive projects or partnership inquiries, write to our founder directly. Every message is read personally.',
  linkLabel: 'Email our founder',
} as const satisfies { heading: string; body: string; linkLabel: string }

export const aboutCallToAction = {
  heading: 'Work with a team that stays out of sight',
  body: 'Tell us about your project. We reply within 24 hours, and only our team reads what you send.',
  actions: [
    { label: 'Message on Telegram', target: { kind: 'telegram' } },
    { label: 'Send Secure Brief', target: { kind: 'page', to: '/contact' } },
  ],
} as const satisfies CallToAction
