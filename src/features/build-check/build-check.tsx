import { privacyBuild } from '../../content/privacy'
import { siteEnv } from '../../lib/env'
import { useBuildId } from '../../shared/use-build-id'

/**
 * The build id of the files this site serves, read from its manifest by the page itself, and how
 * a technical visitor can rebuild and compare them (`npm run verify`).
 */
export function BuildCheck() {
  const buildId = useBuildId()
  return (
    <section aria-labelledby="build-check-heading" className="surface-card h-fit p-6">
      <h2 id="build-check-heading" className="text-xl font-semibold">
        {privacyBuild.heading}
      </h2>
      <p className="mt-2 text-sm text-muted">{privacyBuild.body}</p>
      <p className="mt-3 text-sm">
        <span className="text-muted">{privacyBuild.buildId}: </span>
        {buildId ? (
          <code data-testid="build-id" className="font-mono text-text">
            {buildId}
          </code>
        ) : (
          <span className="text-muted">
            {buildId === null ? privacyBuild.unreadable : privacyBuild.reading}
          </span>
        )}
      </p>
      <p className="mt-3 text-sm text-muted">{privacyBuild.howToVerify(siteEnv.siteUrl)}</p>
    </section>
  )
}
