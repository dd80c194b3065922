import { Link } from 'react-router-dom'
import { CallToActionSection } from '../components/call-to-action'
import { CheckList } from '../components/feature-card'
import { Icon } from '../components/icon'
import { PageIntro } from '../components/page-intro'
import {
  caseStudies,
  caseStudiesCallToAction,
  caseStudiesIntro,
  caseStudyCardAction,
} from '../content/case-studies'
import type { MetricTone } from '../content/types'

const toneClasses: Record<MetricTone, string> = {
  mint: 'text-mint',
  violet: 'text-violet',
  amber: 'text-amber',
  sky: 'text-sky',
}

export function CaseStudiesPage() {
  return (
    <>
      <PageIntro page="case-studies" intro={caseStudiesIntro} />
      <section aria-label="Case studies" className="mx-auto page-gutter max-w-6xl py-20">
        <ul className="grid gap-6 lg:grid-cols-2">
          {caseStudies.map((study) => (
            <li key={study.id} id={study.id} className="flex">
              <article className="surface-card flex w-full flex-col p-6 sm:p-8">
                <p className="flex items-center gap-2 text-sm font-semibold tracking-widest text-mint uppercase">
                  <Icon name={study.icon} className="size-4" />
                  {study.category}
                </p>
                <h2 className="mt-4 text-2xl font-semibold">{study.title}</h2>
                <p className="mt-3 text-muted">{study.description}</p>
                <dl className="mt-6 grid grid-cols-2 gap-3">
                  {study.metrics.map((metric) => (
                    <div
                      key={metric.label}
                      className="flex flex-col-reverse rounded-xl border border-line bg-ink px-4 py-3"
                    >
                      <dt className="text-xs text-muted">{metric.label}</dt>
                      <dd
                        className={`font-display text-2xl font-semibold ${toneClasses[metric.tone]}`}
                      >
                        {metric.value}
                      </dd>
                    </div>
                  ))}
                </dl>
                <CheckList items={study.highlights} label={`${study.category} highlights`} />
                <Link
                  to={`/contact?about=${study.id}`}
                  className="mt-auto self-start pt-4 font-semibold text-mint underline"
                >
                  {caseStudyCardAction}
                </Link>
              </article>
            </li>
          ))}
        </ul>
      </section>
      <CallToActionSection content={caseStudiesCallToAction} />
    </>
  )
}
