import { useEffect } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { actionClasses } from '../components/action-link'
import { notFoundContent } from '../content/not-found'

/** Spec §2 "Not found": the missing path is logged so it shows up in the console. */
export function NotFoundPage() {
  const { pathname } = useLocation()

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname)
  }, [pathname])

  return (
    <section className="hero-backdrop flex min-h-[70vh] items-center">
      <div className="mx-auto page-gutter max-w-3xl [--page-width:48rem] py-20 text-center">
        <p className="font-display text-8xl font-semibold text-gradient sm:text-9xl">
          {notFoundContent.code}
        </p>
        <h1 className="mt-6 text-3xl font-semibold sm:text-4xl">{notFoundContent.heading}</h1>
        <p className="mt-4 text-muted">{notFoundContent.body}</p>
        <Link to="/" className={`${actionClasses('primary')} mt-10`}>
          {notFoundContent.homeLinkLabel}
        </Link>
      </div>
    </section>
  )
}
