import { useSyncExternalStore } from 'react'
import { Link } from 'react-router-dom'
import { appUpdateCopy } from '../content/app-update'
import { listedRoutes } from '../config/routes'
import { footerContent } from '../content/footer'
import { site } from '../content/site'
import type { LinkTarget } from '../content/types'
import { SmartLink } from './action-link'
import { ChannelIcon, type ChannelIconName } from './channel-icon'
import { isOfflineReady, subscribeToOfflineReady } from './offline-ready'
import { Wordmark } from './wordmark'

declare const __BUILD_YEAR__: number

const footerLink = 'inline-flex min-h-11 items-center gap-2 text-muted hover:text-text'

/** The contact channels, in the footer's order. */
const channels: ReadonlyArray<{ target: LinkTarget; icon: ChannelIconName; label: string }> = [
  { target: { kind: 'telegram' }, icon: 'send', label: site.telegramLabel },
  { target: { kind: 'whatsapp' }, icon: 'message', label: site.whatsappLabel },
  { target: { kind: 'page', to: '/contact' }, icon: 'lock', label: site.secureContactLabel },
  { target: { kind: 'page', to: '/replies' }, icon: 'mail', label: footerContent.repliesLabel },
]

/**
 * The footer: navigation, the contact channels, a privacy line and the copyright. It ends with the
 * strip the quick-contact buttons own (--bottom-reserve), so its last line scrolls clear of them.
 */
export function SiteFooter() {
  return (
    <footer className="border-t border-line bg-surface pb-[var(--bottom-reserve)]">
      <div className="mx-auto page-gutter grid max-w-6xl gap-10 py-14 sm:grid-cols-2 lg:grid-cols-4">
        <div className="lg:col-span-2">
          <Link to="/" className="inline-block rounded-md">
            <Wordmark place="footer" />
          </Link>
          <p className="mt-4 max-w-sm text-sm text-muted">{footerContent.tagline}</p>
          <p className="mt-4 flex max-w-sm items-start gap-2 text-sm text-muted">
            <ChannelIcon name="shield" className="mt-0.5 size-4 shrink-0 text-mint" />
            {footerContent.privacyLine}
          </p>
          <OfflineReadyLine />
        </div>

        <nav aria-labelledby="footer-navigation">
          <h2
            id="footer-navigation"
            className="text-sm font-semibold tracking-widest text-text uppercase"
          >
            {footerContent.navigationHeading}
          </h2>
          <ul className="mt-3 text-sm">
            {listedRoutes.map((route) => (
              <li key={route.id}>
                <Link to={route.path} className={footerLink}>
                  {route.navLabel}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <h2 className="text-sm font-semibold tracking-widest text-text uppercase">
            {footerContent.channelsHeading}
          </h2>
          <ul className="mt-3 text-sm">
            {channels.map(({ target, icon, label }) => (
              <li key={icon}>
                <SmartLink target={target} className={footerLink}>
                  <ChannelIcon name={icon} className="size-4" />
                  {label}
                </SmartLink>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-line">
        <p className="mx-auto page-gutter max-w-6xl py-6 text-xs text-muted">
          © {__BUILD_YEAR__} {site.name}. All rights reserved.
        </p>
      </div>
    </footer>
  )
}

const notInPrerender = () => false

/**
 * The first visit's "Ready to work offline": a polite status line here, away from the page's
 * heading and the menu, rather than a notice over them. The live region is in the page from the
 * start, so screen readers hear the line when it appears.
 */
function OfflineReadyLine() {
  const ready = useSyncExternalStore(subscribeToOfflineReady, isOfflineReady, notInPrerender)
  return (
    <p role="status" className="mt-4 max-w-sm text-sm text-muted empty:mt-0">
      {ready && (
        <span className="flex items-start gap-2">
          <ChannelIcon name="check" className="mt-0.5 size-4 shrink-0 text-mint" />
          <span>
            <span className="font-semibold text-text">{appUpdateCopy.offlineReady.title}.</span>{' '}
            {appUpdateCopy.offlineReady.description}
          </span>
        </span>
      )}
    </p>
  )
}
