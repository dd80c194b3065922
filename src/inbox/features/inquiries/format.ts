/** Times as staff read them on a phone: short, in their own time zone. */
export const formatTime = (date: Date) =>
  date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export const formatAge = (since: Date, now = Date.now()) => formatSpan(now - since.getTime())

/** A PostgreSQL interval as PostgREST sends it ("01:23:00", "1 day 02:00:00") in hours. */
export function formatInterval(interval: string | null): string {
  if (!interval) return '–'
  const days = Number(/(\d+) days?/.exec(interval)?.[1] ?? 0)
  const [hours = 0, minutes = 0] = (/(\d+):(\d+)/.exec(interval)?.slice(1) ?? []).map(Number)
  const total = days * 24 + hours + minutes / 60
  return total < 1 ? `${Math.round(total * 60)} min` : `${Math.round(total * 10) / 10} h`
}

/** A span of time as a row says it ("23 h", "2 h", "45 min", "3 d"): whole units, rounded down. */
export function formatSpan(milliseconds: number): string {
  const minutes = Math.max(0, Math.floor(milliseconds / 60_000))
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`
}
