import type { RoutePath } from '../config/routes'

/**
 * Shapes of the site's static content (spec §3, "Static content shapes"). Content modules hold data
 * only: icons are referred to by name and drawn by `components/icon.tsx`, links by intent.
 */

/** Names of the icons the site draws; `components/icon.tsx` maps each to an SVG. */
export type IconName =
  | 'rocket'
  | 'megaphone'
  | 'ghost'
  | 'bot'
  | 'credit-card'
  | 'send'
  | 'mail'
  | 'users'
  | 'shield'
  | 'lock'
  | 'target'
  | 'handshake'
  | 'chart'
  | 'eye-off'
  | 'zap'
  | 'coins'
  | 'clock'
  | 'globe'
  | 'message'
  | 'trending-up'

export type Four<T> = readonly [T, T, T, T]

/** Internal paths, derived from the route table: a typo in a link fails the typecheck. */
export type InternalPath = RoutePath

/** Where a call-to-action goes: a page of the site or one of the agency's messaging channels. */
export type LinkTarget =
  | { kind: 'page'; to: InternalPath }
  | { kind: 'telegram' }
  | { kind: 'whatsapp' }
  | { kind: 'email' }

export type Action = { label: string; target: LinkTarget }

export type CallToAction = {
  heading: string
  body: string
  actions: readonly Action[]
}

export type Capability = { icon: IconName; title: string; description: string }

export type Service = {
  id: string
  icon: IconName
  title: string
  description: string
  features: Four<string>
}

export type MetricTone = 'mint' | 'violet' | 'amber' | 'sky'

export type Metric = { label: string; value: string; tone: MetricTone }

export type CaseStudy = {
  id: string
  icon: IconName
  category: string
  title: string
  description: string
  metrics: Four<Metric>
  highlights: Four<string>
}

export type Stat = { value: string; label: string }

/** A value card has the shape of a capability card. */
export type CoreValue = Capability
