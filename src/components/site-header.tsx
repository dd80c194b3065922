import { useEffect, useId, useRef, useState } from 'react'
import { Link, NavLink, useLocation } from 'react-router-dom'
import { Menu, X } from 'lucide-react'
import { headerRoutes } from '../config/routes'
import { site } from '../content/site'
import { actionClasses, SmartLink } from './action-link'
import { ChannelIcon } from './channel-icon'
import { Wordmark } from './wordmark'

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'text-mint' : 'text-muted hover:text-text'
  }`

/**
 * The fixed header (spec §2, shared frame). On small screens the navigation folds into a menu that
 * toggles, closes on Escape (focus returns to the toggle) and closes when a link is chosen.
 */
export function SiteHeader() {
  const { pathname } = useLocation()
  // The menu remembers the address it was opened on: a navigation by any means (a link, the back
  // button) leaves that address, and so closes it.
  const [openedOn, setOpenedOn] = useState<string | null>(null)
  const menuOpen = openedOn === pathname
  const setMenuOpen = (open: boolean) => setOpenedOn(open ? pathname : null)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!menuOpen) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpenedOn(null)
      toggleRef.current?.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [menuOpen])

  const closeMenu = () => setMenuOpen(false)

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-line bg-ink/85 backdrop-blur-md">
      <div className="mx-auto flex h-header max-w-6xl items-center justify-between gap-4 px-5 sm:px-8">
        <Link to="/" className="shrink-0 rounded-md" onClick={closeMenu}>
          <Wordmark />
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
            className="inline-flex size-11 items-center justify-center rounded-full border border-line text-text lg:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <span className="sr-only">Menu</span>
            {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
          </button>
        </div>
      </div>

      <nav
        id={menuId}
        aria-label="Mobile"
        hidden={!menuOpen}
        className="border-t border-line bg-ink px-5 pt-2 pb-6 lg:hidden"
      >
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
          <SmartLink target={{ kind: 'telegram' }} onClick={closeMenu} className={actionClasses('secondary')}>
            <ChannelIcon name="send" className="size-4" />
            {site.telegramLabel}
          </SmartLink>
        </div>
      </nav>
    </header>
  )
}
