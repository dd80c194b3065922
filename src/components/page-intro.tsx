import { routeById, type RouteId } from '../config/routes'

/**
 * The top of every inner page: its nav label as the eyebrow, the page's one h1 and a lead
 * paragraph.
 */
export function PageIntro({
  page,
  intro,
}: {
  page: RouteId
  intro: { heading: string; lead: string }
}) {
  return (
    <section className="hero-backdrop border-b border-line">
      <div className="mx-auto page-gutter max-w-6xl pt-16 pb-14 sm:pt-24 sm:pb-20">
        <p className="text-sm font-semibold tracking-[0.2em] text-mint uppercase">
          {routeById(page).navLabel}
        </p>
        <h1 className="mt-4 max-w-3xl text-4xl font-semibold sm:text-6xl">{intro.heading}</h1>
        <p className="mt-6 max-w-2xl text-lg text-muted">{intro.lead}</p>
      </div>
    </section>
  )
}
