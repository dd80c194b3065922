import { SmartLink } from '../components/action-link'
import { CallToActionSection } from '../components/call-to-action'
import { FeatureCard } from '../components/feature-card'
import { Icon } from '../components/icon'
import { PageIntro } from '../components/page-intro'
import { SectionHeading } from '../components/section-heading'
import { StatGrid } from '../components/stat-grid'
import {
  aboutCallToAction,
  aboutIntro,
  aboutStats,
  coreValues,
  founderContact,
  founderStory,
} from '../content/about'
import { site } from '../content/site'

export function AboutPage() {
  return (
    <>
      <PageIntro page="about" intro={aboutIntro} />

      <section
        aria-labelledby="story-heading"
        className="mx-auto page-gutter grid max-w-6xl gap-12 py-20 lg:grid-cols-[1fr_1.4fr]"
      >
        <SectionHeading id="story-heading" heading={founderStory.heading} />
        <div className="space-y-5 text-lg text-muted">
          {founderStory.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </section>

      <section aria-labelledby="values-heading" className="mx-auto page-gutter max-w-6xl pb-20">
        <SectionHeading id="values-heading" heading="What we stand for" />
        <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {coreValues.map((value) => (
            <li key={value.title} className="flex">
              <FeatureCard {...value} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="numbers-heading" className="mx-auto page-gutter max-w-6xl pb-20">
        <h2 id="numbers-heading" className="sr-only">
          By the numbers
        </h2>
        <StatGrid stats={aboutStats} label="By the numbers" />
      </section>

      <section aria-labelledby="founder-contact-heading" className="mx-auto page-gutter max-w-6xl">
        <div className="surface-card flex flex-col gap-6 p-8 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="founder-contact-heading" className="text-2xl font-semibold">
              {founderContact.heading}
            </h2>
            <p className="mt-2 max-w-xl text-muted">{founderContact.body}</p>
          </div>
          <SmartLink
            target={{ kind: 'email' }}
            className="inline-flex min-h-12 shrink-0 items-center gap-2 rounded-full border border-line px-6 py-3 font-semibold hover:border-mint/60"
          >
            <Icon name="mail" className="size-4" />
            {founderContact.linkLabel}
            <span className="sr-only">: {site.founderEmail}</span>
          </SmartLink>
        </div>
      </section>

      <CallToActionSection content={aboutCallToAction} />
    </>
  )
}
