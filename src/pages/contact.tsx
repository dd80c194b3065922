import { Link } from 'react-router-dom'
import { SmartLink } from '../components/action-link'
import { Icon } from '../components/icon'
import {
  contactIntro,
  directContact,
  formCard,
  formNote,
  repliesNote,
  responseTime,
  securityMeasures,
} from '../content/contact-page'
import { routeById } from '../config/routes'
import { ContactForm } from '../features/contact/contact-form'
import { KeyFingerprint } from '../features/contact/sealing/key-fingerprint'
import { browserSubmitDependencies } from '../features/contact/submit-browser'

export function ContactPage() {
  return (
    <>
      <section className="hero-backdrop border-b border-line">
        <div className="mx-auto page-gutter max-w-6xl pt-16 pb-12 sm:pt-24">
          <p className="text-sm font-semibold tracking-[0.2em] text-mint uppercase">
            {routeById('contact').navLabel}
          </p>
          <h1 className="mt-4 text-4xl font-semibold sm:text-6xl">{contactIntro.heading}</h1>
          <p className="mt-6 max-w-2xl text-lg text-muted">{contactIntro.blurb}</p>
        </div>
      </section>

      <div className="mx-auto page-gutter grid max-w-6xl gap-6 py-16 lg:grid-cols-[1.6fr_1fr]">
        <section aria-labelledby="form-card-title" className="surface-card p-6 sm:p-8">
          <h2 id="form-card-title" className="flex items-center gap-3 text-2xl font-semibold">
            <Icon name="lock" className="size-5 text-mint" />
            {formCard.title}
          </h2>
          <p className="mt-2 text-muted">{formCard.description}</p>
          <div className="mt-8">
            <ContactForm dependencies={browserSubmitDependencies} />
          </div>
          <p className="mt-6 flex items-start gap-2 text-sm text-muted">
            <Icon name="shield" className="mt-0.5 size-4 shrink-0 text-mint" />
            {formNote}
          </p>
          <p className="mt-3 flex items-start gap-2 text-sm text-muted">
            <Icon name="lock" className="mt-0.5 size-4 shrink-0 text-mint" />
            <span>
              {repliesNote.text}{' '}
              <Link
                to={routeById('replies').path}
                className="font-semibold text-mint underline underline-offset-4"
              >
                {repliesNote.linkLabel}
              </Link>
            </span>
          </p>
          <KeyFingerprint />
        </section>

        <div className="grid content-start gap-6">
          <section aria-labelledby="direct-contact-title" className="surface-card p-6">
            <h2 id="direct-contact-title" className="text-xl font-semibold">
              {directContact.title}
            </h2>
            <ul className="mt-4 grid gap-3">
              {(
                [
                  { kind: 'telegram', label: directContact.telegramLabel, icon: 'send' },
                  { kind: 'whatsapp', label: directContact.whatsappLabel, icon: 'message' },
                ] as const
              ).map((channel) => (
                <li key={channel.kind}>
                  <SmartLink
                    target={{ kind: channel.kind }}
                    className="flex items-center gap-4 rounded-xl border border-line bg-ink p-4 hover:border-mint/60"
                  >
                    <span className="flex size-10 items-center justify-center rounded-lg bg-surface-raised text-mint">
                      <Icon name={channel.icon} />
                    </span>
                    <span className="grid">
                      <span className="font-semibold">{channel.label}</span>
                      <span className="text-sm text-muted">{directContact.channelNote}</span>
                    </span>
                  </SmartLink>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="security-title" className="surface-card p-6">
            <h2 id="security-title" className="text-xl font-semibold">
              {securityMeasures.title}
            </h2>
            <ul className="mt-4 grid gap-3 text-sm">
              {securityMeasures.bullets.map((bullet) => (
                <li key={bullet} className="flex gap-3">
                  <Icon name="shield" className="size-4 shrink-0 text-mint" />
                  {bullet}
                </li>
              ))}
            </ul>
          </section>

          <section
            aria-label={responseTime.label}
            className="surface-card flex items-center gap-4 p-6"
          >
            <Icon name="clock" className="size-8 text-mint" />
            <p className="grid">
              <span className="font-display text-3xl font-semibold text-gradient">
                {responseTime.value}
              </span>
              <span className="text-sm text-muted">{responseTime.label}</span>
            </p>
          </section>
        </div>
      </div>
    </>
  )
}
