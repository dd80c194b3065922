import { refuse } from './errors'

/**
 * The `Prefer` header as PostgREST v14 reads it (src/PostgREST/ApiRequest/Preferences.hs): a
 * comma-separated list, the first value of each kind wins; what it does not know is ignored,
 * unless `handling=strict` asks for a 400 PGRST122. `Preference-Applied` then echoes, in
 * PostgREST's order, the ones the response honoured.
 */

const KINDS = {
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  return: ['representation', 'minimal', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  tx: ['commit', 'rollback'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
} as const
type Kind = keyof typeof KINDS
export type Preferences = { [K in Kind]?: (typeof KINDS)[K][number] } & { invalid: string[] }

export function parsePreferences(header: string | undefined): Preferences {
  const given = header ? header.split(',').map((item) => item.trim()) : []
  const chosen: Record<string, string> = {}
  const invalid: string[] = []
  for (const item of given) {
    const [kind, value] = item.split(/=(.*)/s) as [string, string | undefined]
    const values: readonly string[] | undefined = Object.hasOwn(KINDS, kind)
      ? KINDS[kind as Kind]
      : undefined
    if (value === undefined || !values?.includes(value)) invalid.push(item)
    else chosen[kind] ??= value
  }
  return { ...(chosen as Omit<Preferences, 'invalid'>), invalid }
}

/**
 * Refusals decided from the preferences once the target is known (as PostgREST's plan does):
 * strict handling of unknown ones, and what the stand-in does not implement, answered with a
 * 4xx rather than ignored (planned and estimated counts).
 */
export function checkPreferences(preferences: Preferences): void {
  if (preferences.handling === 'strict' && preferences.invalid.length) {
    refuse(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${preferences.invalid.join(', ')}`,
    )
  }
  if (preferences.count === 'planned' || preferences.count === 'estimated') {
    refuse(
      400,
      'PGRST127',
      'Feature not implemented',
      `The local stand-in counts exactly only (count=exact), not count=${preferences.count}.`,
    )
  }
}

/** What a kind of response honours (responsePreferences in src/PostgREST/Response.hs). */
export type Honoured = 'read' | 'call' | 'update' | { insert: { resolution: boolean } }

/** `Preference-Applied`, or nothing when no preference was honoured. */
export function preferenceApplied(
  preferences: Preferences,
  honoured: Honoured,
): Record<string, string> {
  const mutation = honoured === 'update' || typeof honoured === 'object'
  // tx is never honoured: PostgREST ignores it unless db-tx-end allows overriding (Supabase's does not).
  const applied = [
    typeof honoured === 'object' && honoured.insert.resolution && preferences.resolution
      ? `resolution=${preferences.resolution}`
      : null,
    mutation && preferences.missing ? `missing=${preferences.missing}` : null,
    mutation && preferences.return ? `return=${preferences.return}` : null,
    preferences.count ? `count=${preferences.count}` : null,
    preferences.handling ? `handling=${preferences.handling}` : null,
  ].filter((value): value is string => value !== null)
  return applied.length ? { 'Preference-Applied': applied.join(', ') } : {}
}
