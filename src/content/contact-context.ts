import type { ProjectType } from '../shared/submission/fields'
import type { caseStudies } from './case-studies'
import type { services } from './services'

/**
 * What a call to action tells the contact form: `/contact?about=<id>` chooses the
 * project type and names in the brief's placeholder what the visitor came from. Only the ids are
 * typed against the content (type imports: the contact page does not load the cards); the
 * names are repeated here, short, and content.test.ts checks they are the cards' own. An id not
 * listed here, or none, leaves the form as it is.
 */
type CaseStudyId = (typeof caseStudies)[number]['id']
type ServiceId = (typeof services)[number]['id']

export type ContactContext = { projectType?: ProjectType; name: string }

export const contactContexts = {
  'token-launch-presale': {
    projectType: 'crypto/web3-launch',
    name: 'the case study “Presale raised $3.4M in 19 days”',
  },
  'exchange-community': {
    projectType: 'community-building',
    name: 'the case study “Telegram community grown to 120,000 members”',
  },
  'igaming-ghost-funnel': {
    projectType: 'anonymous-marketing-campaign',
    name: 'the case study “500% ROI from a ghost-brand funnel”',
  },
  'nutra-email-sms': {
    projectType: 'email/sms-sequences',
    name: 'the case study “98% deliverability on email and SMS flows”',
  },
  'defi-launch-reach': {
    projectType: 'crypto/web3-launch',
    name: 'the case study “50M impressions for a protocol relaunch”',
  },
  'fintech-checkout': {
    projectType: 'payment-solutions',
    name: 'the case study “340% conversion boost at checkout”',
  },
  'crypto-campaigns': { projectType: 'crypto/web3-launch', name: 'our Crypto Campaigns service' },
  'anonymous-funnels': {
    projectType: 'anonymous-marketing-campaign',
    name: 'our Anonymous Funnels & Growth service',
  },
  'ai-automation': {
    projectType: 'ai-automation-setup',
    name: 'our AI Campaign Automation service',
  },
  'payment-solutions': { projectType: 'payment-solutions', name: 'our Payment Solutions service' },
  'telegram-community': {
    projectType: 'community-building',
    name: 'our Telegram & Community Growth service',
  },
  'email-sms-sequences': {
    projectType: 'email/sms-sequences',
    name: 'our Email & SMS Lead Sequences service',
  },
} as const satisfies Record<CaseStudyId | ServiceId, ContactContext>

export type ContactContextId = keyof typeof contactContexts

/** The context an address's query names (`?about=<id>`), or null: unknown ids change nothing. */
export function contactContextOf(search: string): ContactContext | null {
  const about = new URLSearchParams(search).get('about')
  return about !== null && Object.hasOwn(contactContexts, about)
    ? contactContexts[about as ContactContextId]
    : null
}

/** The brief's placeholder when the visitor came from a call to action. */
export const briefPlaceholderAbout = (name: string) =>
  `About ${name}: goals, timeline, markets, anything we should know. Share only what you are comfortable sharing.`
