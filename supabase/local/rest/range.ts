import { refuse } from './errors'

/**
 * PostgREST's ranges (src/PostgREST/RangeQuery.hs, ApiRequest.hs getRanges): the `Range: a-b`
 * header of a GET intersected with `offset` and `limit`, capped at db-max-rows (1000, the Supabase
 * default); and the `Content-Range` and status (200, 206 or 416) of the rows answered.
 */

/** Supabase's `[api] max_rows`: no GET answers more rows than this. */
export const MAX_ROWS = 1000

export type Window = { offset: number; limit: number }

export function requestedWindow(
  method: string,
  rangeHeader: string | undefined,
  offset: number | null,
  limit: number | null,
): Window {
  let lower = offset ?? 0
  let upper = limit === null ? Infinity : lower + limit - 1
  // RFC 9110: the Range header is for GET only; a malformed one is ignored, as PostgREST does.
  const range = method === 'GET' ? /^(\d+)-(\d*)$/.exec(rangeHeader ?? '') : null
  if (range) {
    const headerLower = Number(range[1])
    const headerUpper = range[2] ? Number(range[2]) : Infinity
    if (headerLower > headerUpper) {
      refuse(
        416,
        'PGRST103',
        'Requested range not satisfiable',
        'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
      )
    }
    lower = Math.max(lower, headerLower)
    upper = Math.min(upper, headerUpper)
  }
  return { offset: lower, limit: Math.max(0, Math.min(upper - lower + 1, MAX_ROWS)) }
}

/** contentRangeH: `lower-upper/total`, `*` where there is no range or no total. */
export function contentRange(lower: number, rows: number, total: number | null): string {
  const upper = lower + rows - 1
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*'
  return `${range}/${total ?? '*'}`
}

/** rangeStatus: 416 past the end, 206 for part of a counted whole, else 200. */
export function rangeStatus(offset: number, rows: number, total: number | null): number {
  if (total === null) return 200
  if (offset > total) {
    refuse(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${total} rows.`,
    )
  }
  return rows < total ? 206 : 200
}
