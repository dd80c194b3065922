import { useEffect, useId, useRef, useState } from 'react'
import { Link, NavLink, useLocation } from 'react-router-dom'
import { Menu, X } from 'lucide-react'
import { headerRoutes } from '../config/routes'
import { site } from '../content/site'
import { useHydrated } from '../lib/use-hydrated'
import { actionClasses, SmartLink } from './action-link'
import { ChannelIcon } from './channel-icon'
import { Wordmark } from './wordmark'

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'text-mint' : 'text-muted hover:text-text'
  }`

const supportsPopover = () =>
  typeof HTMLElement !== 'undefined' && 'showPopover' in HTMLElement.prototype

function isSheetOpen(sheet: HTMLElement): boolean {
  return sheet.hasAttribute('data-open') || (supportsPopover() && sheet.matches(':popover-open'))
}

/** Engines without popovers: the script opens the sheet by an attribute, and says so the same way. */
function setFallbackOpen(sheet: HTMLElement, open: boolean): void {
  sheet.toggleAttribute('data-open', open)
  sheet.dispatchEvent(new Event('toggle'))
}

function hideSheet(sheet: HTMLElement | null): void {
  if (!sheet || !isSheetOpen(sheet)) return
  if (sheet.hasAttribute('data-open')) setFallbackOpen(sheet, false)
  else sheet.hidePopover()
}

/**
 * The fixed header (spec §2, shared frame). On small screens the navigation is a sheet: a native
 * popover, so the prerendered page opens and closes it without JavaScript (the button toggles it,
 * a tap outside or Escape closes it, and choosing a link loads the page). Once hydrated, the script
 * adds what a sheet needs beyond that: it closes when a link is chosen (client-side navigation),
 * keeps Tab inside the toggle and the sheet, and says whether it is expanded. CSS locks the page's
 * scroll while it is open (styles.css, `.menu-sheet`).
 */
export function SiteHeader() {
  const { pathname } = useLocation()
  const hydrated = useHydrated()
  const [menuOpen, setMenuOpen] = useState(false)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const sheetRef = useRef<HTMLElement>(null)
  const menuId = useId()

  const closeMenu = () => hideSheet(sheetRef.current)

  // The sheet opens and closes natively; React follows.
  useEffect(() => {
    const sheet = sheetRef.current
    if (!sheet) return
    const onToggle = () => setMenuOpen(isSheetOpen(sheet))
    sheet.addEventListener('toggle', onToggle)
    // The visitor may have opened it before the script arrived.
    if (isSheetOpen(sheet)) sheet.dispatchEvent(new Event('toggle'))
    return () => sheet.removeEventListener('toggle', onToggle)
  }, [])

  // A navigation by any means (a link, the back button) closes it.
  useEffect(() => hideSheet(sheetRef.current), [pathname])

  useEffect(() => {
    if (!menuOpen) return
    const onKeyDown = (event: KeyboardEvent) => {
      const sheet = sheetRef.current
      const toggle = toggleRef.current
      if (!sheet || !toggle) return
      if (event.key === 'Escape') {
        // Native popovers close on Escape by themselves; this covers the fallback, and puts focus
        // back on the toggle in every engine.
        hideSheet(sheet)
        toggle.focus()
        return
      }
      if (event.key !== 'Tab') return
      // A focus trap over the toggle (which closes the sheet) and the sheet's own links.
      const stops = [
        toggle,
        ...sheet.querySelectorAll<HTMLElement>('a[href], button:not([disabled], [tabindex="-1"])'),
      ]
      const at = stops.indexOf(document.activeElement as HTMLElement)
      const last = stops.length - 1
      const next = event.shiftKey
        ? at <= 0
          ? last
          : at - 1
        : at === -1 || at === last
          ? 0
          : at + 1
      event.preventDefault()
      stops[next]?.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [menuOpen])

  // Where popovers are missing, the script opens the sheet itself.
  const onToggleClick = () => {
    const sheet = sheetRef.current
    if (sheet && !supportsPopover()) setFallbackOpen(sheet, !sheet.hasAttribute('data-open'))
  }

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-line bg-ink/85 pt-[var(--safe-top)] backdrop-blur-md">
      <div className="mx-auto page-gutter flex h-header max-w-6xl items-center justify-between gap-4">
        <Link to="/" className="shrink-0 rounded-md" onClick={closeMenu}>
          <Wordmark place="header" />
        </Link>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {headerRoutes.map((route) => (
              <li key={route.id}>
                <NavLink to={route.path} end className={navLinkClasses}>
                  {route.navLabel}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="flex items-center gap-2">
          <SmartLink
            target={{ kind: 'telegram' }}
            className="hidden items-center gap-2 rounded-full px-3 py-2 text-sm font-medium text-muted hover:text-text sm:inline-flex"
          >
            <ChannelIcon name="send" className="size-4" />
            {site.telegramLabel}
          </SmartLink>
          <Link
            to="/contact"
            className="hidden min-h-10 items-center rounded-full bg-mint px-4 py-2 text-sm font-semibold text-on-accent hover:bg-mint-strong sm:inline-flex"
          >
            {site.startProjectLabel}
          </Link>
          <button
            ref={toggleRef}
            type="button"
            popovertarget={menuId}
            className="inline-flex size-11 items-center justify-center rounded-full border border-line text-text lg:hidden"
            // Before hydration the browser itself reports the popover's state; afterwards React does.
            aria-expanded={hydrated ? menuOpen : undefined}
            aria-controls={menuId}
            onClick={onToggleClick}
          >
            <span className="sr-only">Menu</span>
            <Menu className="menu-toggle-open size-5" aria-hidden="true" />
            <X className="menu-toggle-close size-5" aria-hidden="true" />
          </button>
        </div>
      </div>

      <nav ref={sheetRef} id={menuId} popover="auto" aria-label="Mobile" className="menu-sheet">
        <div className="menu-sheet-panel">
          <ul className="flex flex-col">
            {headerRoutes.map((route) => (
              <li key={route.id}>
                <NavLink
                  to={route.path}
                  end
                  onClick={closeMenu}
                  className={({ isActive }) =>
                    `block border-b border-line py-4 text-lg font-medium ${isActive ? 'text-mint' : 'text-text'}`
                  }
                >
                  {route.navLabel}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mt-6 flex flex-col gap-3">
            <Link to="/contact" onClick={closeMenu} className={actionClasses('primary')}>
              {site.startProjectLabel}
            </Link>
            <SmartLink
              target={{ kind: 'telegram' }}
              onClick={closeMenu}
              className={actionClasses('secondary')}
            >
              <ChannelIcon name="send" className="size-4" />
              {site.telegramLabel}
            </SmartLink>
          </div>
        </div>
        {/* Pointer-only: keyboard and screen reader users close it with Escape or the toggle. */}
        <button
          type="button"
          popovertarget={menuId}
          popovertargetaction="hide"
          tabIndex={-1}
          aria-hidden="true"
          className="menu-sheet-dismiss"
          onClick={closeMenu}
        />
      </nav>
    </header>
  )
}
