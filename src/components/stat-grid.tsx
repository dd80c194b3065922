import type { Stat } from '../content/types'

export function StatGrid({ stats, label }: { stats: readonly Stat[]; label: string }) {
  return (
    <dl
      aria-label={label}
      className="grid grid-cols-2 gap-px overflow-hidden rounded-2xl border border-line bg-line lg:grid-cols-4"
    >
      {stats.map((stat) => (
        <div key={stat.label} className="flex flex-col-reverse gap-1 bg-surface px-5 py-6">
          <dt className="text-sm text-muted">{stat.label}</dt>
          <dd className="font-display text-3xl font-semibold text-gradient sm:text-4xl">
            {stat.value}
          </dd>
        </div>
      ))}
    </dl>
  )
}
