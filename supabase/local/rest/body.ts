import { refuse } from './errors'

/**
 * A request body as PostgREST reads it (payloadAttributes): JSON only, valid UTF-8, one object or
 * an array of objects with the same keys; any other JSON value (a string, a number, null) is
 * taken as an empty array.
 */

/** Deeper JSON is refused before any parser recurses on it (PostgreSQL's would fail with 54001). */
export const MAX_JSON_DEPTH = 64

export type Row = Record<string, unknown>

/** How deep arrays and objects nest, counted without recursion. */
function nestingDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 0x5c) i += 1
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, (depth += 1))
    else if (char === 0x7d || char === 0x5d) depth -= 1
  }
  return deepest
}

const isObject = (item: unknown): item is Row =>
  typeof item === 'object' && item !== null && !Array.isArray(item)

export function parseRows(contentType: string | undefined, body: ArrayBuffer): Row[] {
  const mime = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase()
  const invalid = (details: string | null = null) =>
    refuse(400, 'PGRST102', 'Empty or invalid json', details)
  if (mime !== 'application/json') refuse(400, 'PGRST102', `Content-Type not acceptable: ${mime}`)
  let text: string
  try {
    // Invalid UTF-8 is refused, never stored as U+FFFD replacement characters.
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    return invalid()
  }
  if (nestingDepth(text) > MAX_JSON_DEPTH)
    invalid(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return invalid()
  }
  if (isObject(value)) return [value]
  if (!Array.isArray(value)) return []
  const keysOf = (row: Row) => Object.keys(row).sort().join('\0')
  if (value.every(isObject) && value.every((row) => keysOf(row) === keysOf(value[0] ?? {})))
    return value
  return refuse(400, 'PGRST102', 'All object keys must match')
}
