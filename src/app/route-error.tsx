import { Link } from 'react-router-dom'
import { routeErrorContent } from '../content/not-found'
import { actionClasses } from '../components/action-link'

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

/** Spec §2, "Generic fallback": an unexpected routing failure, with the error's own message. */
export function RouteError({ error }: { error: unknown }) {
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-3xl flex-col justify-center px-5 py-20 sm:px-8">
      <h1 className="text-3xl font-semibold sm:text-4xl">{routeErrorContent.heading}</h1>
      <p className="mt-4 text-muted">{routeErrorContent.body}</p>
      <pre className="mt-6 overflow-x-auto rounded-xl border border-line bg-surface p-4 text-sm whitespace-pre-wrap text-danger">
        {messageOf(error)}
      </pre>
      <div className="mt-8 flex flex-wrap gap-3">
        <button
          type="button"
          className={actionClasses('primary')}
          onClick={() => window.location.reload()}
        >
          {routeErrorContent.reloadLabel}
        </button>
        <Link to="/" className={actionClasses('secondary')}>
          {routeErrorContent.homeLinkLabel}
        </Link>
      </div>
    </section>
  )
}
