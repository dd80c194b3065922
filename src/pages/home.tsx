import { ActionRow } from '../components/action-row'
import { CallToActionSection } from '../components/call-to-action'
import { FeatureCard } from '../components/feature-card'
import { SectionHeading } from '../components/section-heading'
import { StatGrid } from '../components/stat-grid'
import { arsenal, homeCallToAction, homeHero, trustSignals } from '../content/home'

export function HomePage() {
  return (
    <>
      <section className="hero-backdrop border-b border-line">
        <div className="mx-auto page-gutter max-w-6xl pt-20 pb-16 sm:pt-28 sm:pb-24">
          <p className="text-sm font-semibold tracking-[0.2em] text-mint uppercase">
            {homeHero.eyebrow}
          </p>
          <h1 className="mt-5 max-w-4xl text-5xl font-semibold sm:text-7xl">
            <span className="text-gradient">{homeHero.tagline}</span>
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-muted sm:text-xl">{homeHero.lead}</p>
          <ActionRow actions={homeHero.actions} channelsFrom="sm" className="mt-10" />
          <div className="mt-16">
            <StatGrid stats={trustSignals} label="Track record" />
          </div>
        </div>
      </section>

      <section aria-labelledby="arsenal-heading" className="mx-auto page-gutter max-w-6xl py-20">
        <SectionHeading id="arsenal-heading" heading={arsenal.heading} intro={arsenal.intro} />
        {/* Five cards, no empty slot: two columns and a full-width last card, or three over two. */}
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-6">
          {arsenal.capabilities.map((capability) => (
            <li
              key={capability.title}
              className="flex sm:max-lg:last:col-span-2 lg:col-span-2 lg:nth-[n+4]:col-span-3"
            >
              <FeatureCard {...capability} />
            </li>
          ))}
        </ul>
      </section>

      <CallToActionSection content={homeCallToAction} />
    </>
  )
}
