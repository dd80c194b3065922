import type { CallToAction } from '../content/types'
import { ActionRow } from './action-row'

export function CallToActionSection({ content }: { content: CallToAction }) {
  return (
    <section aria-labelledby="cta-heading" className="mx-auto page-gutter max-w-6xl py-20">
      <div className="surface-card hero-backdrop relative overflow-hidden px-6 py-12 text-center sm:px-12 sm:py-16">
        <h2 id="cta-heading" className="mx-auto max-w-2xl text-3xl font-semibold sm:text-4xl">
          {content.heading}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-muted">{content.body}</p>
        <ActionRow actions={content.actions} className="mt-8 justify-center" />
      </div>
    </section>
  )
}
