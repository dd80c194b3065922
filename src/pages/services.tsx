import { Link } from 'react-router-dom'
import { CallToActionSection } from '../components/call-to-action'
import { CheckList, FeatureCard } from '../components/feature-card'
import { PageIntro } from '../components/page-intro'
import {
  serviceCardAction,
  services,
  servicesCallToAction,
  servicesIntro,
} from '../content/services'

export function ServicesPage() {
  return (
    <>
      <PageIntro page="services" intro={servicesIntro} />
      <section aria-label="Services" className="mx-auto page-gutter max-w-6xl py-20">
        <ul className="grid gap-5 md:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li key={service.id} id={service.id} className="flex">
              <FeatureCard
                icon={service.icon}
                title={service.title}
                description={service.description}
                headingLevel="h2"
              >
                <CheckList items={service.features} label={`${service.title} features`} />
                <Link
                  to={`/contact?about=${service.id}`}
                  className="mt-auto self-start pt-4 font-semibold text-mint underline"
                >
                  {serviceCardAction}
                </Link>
              </FeatureCard>
            </li>
          ))}
        </ul>
      </section>
      <CallToActionSection content={servicesCallToAction} />
    </>
  )
}
