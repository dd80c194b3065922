import type { CallToAction, CaseStudy } from './types'

export const caseStudiesIntro = {
  heading: 'Results, Without the Names',
  lead: 'Our clients stay anonymous. Their results speak for them.',
} as const satisfies { heading: string; lead: string }

/**
 * Clients are never named, only described. The headline figures ($3.4M, 120,000, 98%, 500%, 340%,
 * 50M) are the marketing claims of spec §9; the test beside this file checks each one is shown.
 */
export const caseStudies = [
  {
    id: 'token-launch-presale',
    icon: 'coins',
    category: 'Token Launch',
    title: 'Presale raised $3.4M in 19 days',
    description:
      'A Layer-2 gaming token needed a presale audience without a public team. We ran crypto-native ads, KOL placements and a ghost-branded funnel from whitelist to close.',
    metrics: [
      { label: 'Raised', value: '$3.4M', tone: 'mint' },
      { label: 'Days to hard cap', value: '19', tone: 'violet' },
      { label: 'Whitelisted wallets', value: '14,200', tone: 'sky' },
      { label: 'Cost per wallet', value: '$6.80', tone: 'amber' },
    ],
    highlights: [
      'Hard cap reached in under three weeks',
      'Team identities never disclosed',
      'KOL partners vetted for real reach',
      'Funnel reused for the exchange listing',
    ],
  },
  {
    id: 'exchange-community',
    icon: 'users',
    category: 'Crypto Exchange',
    title: 'Telegram community grown to 120,000 members',
    description:
      'A Tier-2 exchange had a quiet, spam-heavy Telegram group. We rebuilt moderation, ran engagement campaigns and turned it into a support and retention channel.',
    metrics: [
      { label: 'Community members', value: '120,000', tone: 'mint' },
      { label: 'Daily active members', value: '9,600', tone: 'sky' },
      { label: 'Spam messages', value: '-92%', tone: 'amber' },
      { label: 'Support tickets', value: '-35%', tone: 'violet' },
    ],
    highlights: [
      'Multilingual moderation around the clock',
      'Bot-assisted onboarding and FAQs',
      'Weekly AMAs and trading competitions',
      'No purchased members, ever',
    ],
  },
  {
    id: 'igaming-ghost-funnel',
    icon: 'target',
    category: 'iGaming',
    title: '500% ROI from a ghost-brand funnel',
    description:
      'An offshore iGaming operator wanted to test new markets without putting its main brand at risk. We launched a ghost brand with its own funnel and payment flow.',
    metrics: [
      { label: 'ROI', value: '500%', tone: 'mint' },
      { label: 'First-time depositors', value: '3,100', tone: 'sky' },
      { label: 'Cost per depositor', value: '-41%', tone: 'amber' },
      { label: 'Markets tested', value: '4', tone: 'violet' },
    ],
    highlights: [
      'Ghost brand live in 21 days',
      'Crypto deposits alongside cards',
      'AI-tested creative in every market',
      'Main brand never exposed',
    ],
  },
  {
    id: 'nutra-email-sms',
    icon: 'mail',
    category: 'Nutraceuticals',
    title: '98% deliverability on email and SMS flows',
    description:
      'A supplement brand was losing a third of its emails to spam folders. We moved it to dedicated sending infrastructure and rebuilt its lead sequences from scratch.',
    metrics: [
      { label: 'Deliverability', value: '98%', tone: 'mint' },
      { label: 'Repeat purchases', value: '+62%', tone: 'violet' },
      { label: 'Revenue from flows', value: '31%', tone: 'sky' },
      { label: 'Unsubscribe rate', value: '0.4%', tone: 'amber' },
    ],
    highlights: [
      'Dedicated IPs and warmed domains',
      'Sequences segmented by purchase history',
      'SMS win-back for lapsed buyers',
      'Inactive contacts pruned monthly',
    ],
  },
  {
    id: 'defi-launch-reach',
    icon: 'trending-up',
    category: 'DeFi Protocol',
    title: '50M impressions for a protocol relaunch',
    description:
      'A top-20 DeFi protocol needed reach for a major version launch. We ran programmatic crypto ads, KOL threads and AI-tested creative across twelve countries.',
    metrics: [
      { label: 'Impressions', value: '50M', tone: 'sky' },
      { label: 'TVL growth', value: '+48%', tone: 'mint' },
      { label: 'New wallets connected', value: '27,000', tone: 'violet' },
      { label: 'Average CPM', value: '$2.10', tone: 'amber' },
    ],
    highlights: [
      'Campaign live in 10 days',
      '380 creative variants tested',
      'Spend shifted daily to top performers',
      'Zero brand-safety incidents',
    ],
  },
  {
    id: 'fintech-checkout',
    icon: 'credit-card',
    category: 'Fintech',
    title: '340% conversion boost at checkout',
    description:
      'A high-risk fintech merchant was losing most buyers at a card-only checkout. We added crypto and alternative payment rails with routing across several processors.',
    metrics: [
      { label: 'Conversion boost', value: '340%', tone: 'mint' },
      { label: 'Payment approval rate', value: '91%', tone: 'sky' },
      { label: 'Chargebacks', value: '-57%', tone: 'amber' },
      { label: 'Weeks to go live', value: '5', tone: 'violet' },
    ],
    highlights: [
      'Crypto and local payment methods added',
      'Automatic failover between processors',
      'Settlement in stablecoins or fiat',
      'Checkout rebuilt without a redesign',
    ],
  },
] as const satisfies readonly CaseStudy[]

/**
 * Each card's link to the contact form, which then chooses the project type and names the case
 * (`/contact?about=<id>`, contact-context.ts).
 */
export const caseStudyCardAction = 'Ask about this case'

export const caseStudiesCallToAction = {
  heading: 'Your project could be next. Quietly.',
  body: 'Tell us what you are building. Detailed, anonymized breakdowns are available to serious prospects on request.',
  actions: [
    { label: 'Discuss Your Project', target: { kind: 'page', to: '/contact' } },
    { label: 'Request Case Study Details', target: { kind: 'page', to: '/contact' } },
  ],
} as const satisfies CallToAction
