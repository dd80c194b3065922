import { siteEnv } from '../lib/env'
import type { Action, CallToAction, Capability, Four, Stat } from './types'

export type HomeHero = {
  /** Short line shown above the tagline. */
  eyebrow: string
  tagline: string
  lead: string
  actions: readonly [Action, Action, Action]
}

export type Arsenal = {
  heading: string
  intro: string
  capabilities: readonly [Capability, Capability, Capability, Capability, Capability]
}

export const homeHero = {
  eyebrow: 'Growth for crypto, Web3 and high-risk brands',
  tagline: 'Anonymous. Scalable. Unstoppable.',
  lead: `${siteEnv.agencyName} runs campaigns, ghost brands and payment rails for projects that need results without exposure. You stay anonymous. Your numbers do the talking.`,
  actions: [
    { label: 'Start a Campaign', target: { kind: 'page', to: '/contact' } },
    { label: 'Chat on Telegram', target: { kind: 'telegram' } },
    { label: 'Message on WhatsApp', target: { kind: 'whatsapp' } },
  ],
} as const satisfies HomeHero

export const arsenal = {
  heading: 'Elite Digital Arsenal',
  intro:
    'Five disciplines run by one discreet team, built for markets that mainstream agencies turn away.',
  capabilities: [
    {
      icon: 'rocket',
      title: 'Crypto Campaigns',
      description:
        'Token launches, exchange listings and DeFi growth, run on the channels crypto audiences actually use.',
    },
    {
      icon: 'ghost',
      title: 'Ghost Brands & Funnels',
      description: 'White-label brands and funnels that convert without tracing back to you.',
    },
    {
      icon: 'bot',
      title: 'AI Automation',
      description:
        'Models that draft, test and tune campaigns around the clock, reviewed by our team before anything ships.',
    },
    {
      icon: 'credit-card',
      title: 'Alternative Payments',
      description:
        'Crypto and high-risk payment rails that keep your checkout open when traditional processors say no.',
    },
    {
      icon: 'send',
      title: 'Telegram & Community Growth',
      description:
        'Real, moderated communities on Telegram and Discord that stay active long after launch day.',
    },
  ],
} as const satisfies Arsenal

/** Short proof points; every figure here is one of the marketing claims of spec §9. */
export const trustSignals = [
  { value: '$50M+', label: 'Revenue generated for clients' },
  { value: '500K+', label: 'Community members built' },
  { value: '50M', label: 'Impressions in a single campaign' },
  { value: '< 24hrs', label: 'Typical response time' },
] as const satisfies Four<Stat>

/**
 * The page's last block asks the visitor to tell us what they are building, so its first action is
 * the way to do it; the spec's View Services and See Results follow.
 */
export const homeCallToAction = {
  heading: 'Ready to grow without the spotlight?',
  body: 'Tell us what you are building. We reply within 24 hours with a plan, not a pitch deck.',
  actions: [
    { label: 'Send a Secure Brief', target: { kind: 'page', to: '/contact' } },
    { label: 'View Services', target: { kind: 'page', to: '/services' } },
    { label: 'See Results', target: { kind: 'page', to: '/case-studies' } },
  ],
} as const satisfies CallToAction
