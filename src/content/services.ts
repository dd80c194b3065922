import type { CallToAction, Service } from './types'

export const servicesIntro = {
  heading: 'Discreet Growth Services',
  lead: 'Six disciplines, one senior team. Pick the one you need, or let us run the full stack.',
} as const satisfies { heading: string; lead: string }

export const services = [
  {
    id: 'crypto-campaigns',
    icon: 'rocket',
    title: 'Crypto Campaigns',
    description:
      'Launches, listings and sustained growth for tokens, exchanges and DeFi protocols, on channels that accept crypto advertisers.',
    features: [
      'Token launch and presale campaigns',
      'Crypto-native ad networks',
      'Vetted KOL and influencer placements',
      'Exchange listing promotion',
    ],
  },
  {
    id: 'anonymous-funnels',
    icon: 'ghost',
    title: 'Anonymous Funnels & Growth',
    description:
      'Ghost brands and white-label funnels that capture demand without showing who is behind them.',
    features: [
      'Ghost brand and identity design',
      'White-label landing pages',
      'Conversion-tested funnels',
      'Privacy-first analytics',
    ],
  },
  {
    id: 'ai-automation',
    icon: 'bot',
    title: 'AI Campaign Automation',
    description:
      'Automated creative testing, bidding and reporting that tune campaigns around the clock, with our team reviewing every change.',
    features: [
      'AI-generated ad variants',
      'Automated bid and budget rules',
      'Predictive audience scoring',
      'Real-time performance alerts',
    ],
  },
  {
    id: 'payment-solutions',
    icon: 'credit-card',
    title: 'Payment Solutions',
    description:
      'Crypto and alternative payment rails for high-risk merchants, so your checkout stays open when traditional processors decline.',
    features: [
      'Crypto payment gateways',
      'High-risk merchant accounts',
      'Multi-processor routing',
      'Chargeback reduction',
    ],
  },
  {
    id: 'telegram-community',
    icon: 'send',
    title: 'Telegram & Community Growth',
    description:
      'Active, moderated communities on Telegram and Discord that hold attention long after launch day.',
    features: [
      'Channel and group setup',
      'Round-the-clock moderation',
      'Engagement campaigns and AMAs',
      'Bot-assisted onboarding',
    ],
  },
  {
    id: 'email-sms-sequences',
    icon: 'mail',
    title: 'Email & SMS Lead Sequences',
    description:
      'Email and SMS sequences that nurture leads from first click to first purchase, sent from infrastructure built for deliverability.',
    features: [
      'Segmented drip sequences',
      'Dedicated sending infrastructure',
      'SMS win-back flows',
      'Deliverability monitoring',
    ],
  },
] as const satisfies readonly Service[]

/**
 * Each card's link to the contact form, which then chooses the project type and names the
 * service (`/contact?about=<id>`, contact-context.ts).
 */
export const serviceCardAction = 'Discuss this service'

export const servicesCallToAction = {
  heading: 'Not sure where to start?',
  body: 'Describe your project and its constraints. We will recommend the smallest setup that moves your numbers.',
  actions: [
    { label: 'Start on Telegram', target: { kind: 'telegram' } },
    { label: 'Send Secure Message', target: { kind: 'page', to: '/contact' } },
  ],
} as const satisfies CallToAction
