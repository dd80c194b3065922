import { CallToActionSection } from '../components/call-to-action'
import { ChannelIcon } from '../components/channel-icon'
import { PageIntro } from '../components/page-intro'
import { BuildCheck } from '../features/build-check/build-check'
import { privacyCallToAction, privacyIntro, privacyKey, privacySections } from '../content/privacy'
import { keyDnsName } from '../content/sealing-key'
import { KeyFingerprint } from '../features/contact/sealing/key-fingerprint'
import { siteEnv } from '../lib/env'

export function PrivacyPage() {
  return (
    <>
      <PageIntro page="privacy" intro={privacyIntro} />

      <div className="mx-auto page-gutter grid max-w-6xl gap-6 py-16 lg:grid-cols-[1.6fr_1fr]">
        <div className="grid content-start gap-6">
          {privacySections.map((section) => (
            <section
              key={section.id}
              id={section.id}
              aria-labelledby={`${section.id}-heading`}
              className="surface-card p-6 sm:p-8"
            >
              <h2 id={`${section.id}-heading`} className="text-2xl font-semibold">
                {section.heading}
              </h2>
              <div className="mt-4 space-y-4 text-muted">
                {section.paragraphs.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
              </div>
              {'points' in section && (
                <ul className="mt-5 grid gap-3">
                  {section.points.map((point) => (
                    <li key={point} className="flex gap-3">
                      <ChannelIcon name="shield" className="mt-1 size-4 shrink-0 text-mint" />
                      <span>{point}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>

        <div className="grid content-start gap-6">
          <aside aria-labelledby="privacy-key-heading" className="surface-card h-fit p-6">
            <h2 id="privacy-key-heading" className="text-xl font-semibold">
              {privacyKey.heading}
            </h2>
            <p className="mt-2 text-sm text-muted">{privacyKey.body}</p>
            <p className="mt-2 text-sm text-muted">
              {privacyKey.howToCheck(keyDnsName(siteEnv.siteUrl))}
            </p>
            <KeyFingerprint linkToPrivacy={false} />
          </aside>
          <BuildCheck />
        </div>
      </div>

      <CallToActionSection content={privacyCallToAction} />
    </>
  )
}
