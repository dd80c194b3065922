import type { ReactNode } from 'react'
import type { IconName } from '../content/types'
import { Icon } from './icon'

/** A card with an icon, a title and a description; children add lists below. */
export function FeatureCard({
  icon,
  title,
  description,
  headingLevel = 'h3',
  children,
}: {
  icon: IconName
  title: string
  description: string
  headingLevel?: 'h2' | 'h3'
  children?: ReactNode
}) {
  const Heading = headingLevel
  return (
    <article className="surface-card flex flex-col p-6 sm:p-7">
      <span className="flex size-11 items-center justify-center rounded-xl border border-line bg-ink text-mint">
        <Icon name={icon} />
      </span>
      <Heading className="mt-5 text-xl font-semibold">{title}</Heading>
      <p className="mt-3 text-muted">{description}</p>
      {children}
    </article>
  )
}

export function CheckList({ items, label }: { items: readonly string[]; label: string }) {
  return (
    <ul aria-label={label} className="mt-5 space-y-2 border-t border-line pt-5 text-sm">
      {items.map((item) => (
        <li key={item} className="flex gap-2.5">
          <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-mint" />
          {item}
        </li>
      ))}
    </ul>
  )
}
