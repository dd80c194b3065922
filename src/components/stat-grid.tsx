import type { Stat } from '../content/types'

/**
 * Figures over their labels; the figures of a row stand on one line (from the top) whatever the
 * number of lines their labels take.
 */
export function StatGrid({ stats, label }: { stats: readonly Stat[]; label: string }) {
  return (
    <dl
      aria-label={label}
      className="grid grid-cols-2 gap-px overflow-hidden rounded-2xl border border-line bg-line lg:grid-cols-4"
    >
      {stats.map((stat) => (
        <div
          key={stat.label}
          className="flex flex-col-reverse justify-end gap-1 bg-surface px-5 py-6"
        >
          <dt className="text-sm text-muted">{stat.label}</dt>
          <dd className="font-display text-3xl font-semibold text-gradient sm:text-4xl">
            {stat.value}
          </dd>
        </div>
      ))}
    </dl>
  )
}
