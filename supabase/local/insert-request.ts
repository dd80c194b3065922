import { notImplemented, postgrestError, type ApiResponse } from './api-response'
import type { TableInfo } from './schema-cache'

/**
 * Turns `POST /rest/v1/<table>` into the one SQL statement PostgREST v14 would run
 * (src/PostgREST/Query/QueryBuilder.hs): only the columns present in the body are inserted, so
 * the others take their defaults, and values go through `json_to_recordset` with the column
 * types from the schema cache, so Postgres itself parses and checks them.
 */

export type InsertStatement = {
  sql: string
  params: unknown[]
  /** True when the client asked for the inserted rows back (`Prefer: return=representation`). */
  returnsRows: boolean
  /** Honoured preferences, for the Preference-Applied header. */
  preferenceApplied: string[]
}

export type InsertRequest = {
  table: TableInfo
  rows: InsertRows
  query: URLSearchParams
  prefer: string | undefined
}

export type InsertRows = Record<string, unknown>[]

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`

const invalidBody = (message: string) => postgrestError(400, { code: 'PGRST102', message })

const columnNotFound = (table: TableInfo, column: string) =>
  postgrestError(400, {
    code: 'PGRST204',
    message: `Could not find the '${column}' column of '${table.name}' in the schema cache`,
  })

/**
 * PostgREST's payload rule: one object, or an array of objects that all have the same keys.
 * Checked before the table is looked up, as PostgREST does, so it decides which error wins.
 */
export function parseInsertBody(
  contentType: string | undefined,
  body: Buffer,
): InsertRows | ApiResponse {
  const mime = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? ''
  // PostgREST also takes CSV and form bodies; the site only ever sends JSON.
  if (mime !== 'application/json') return invalidBody(`Content-Type not acceptable: ${mime}`)

  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    return invalidBody('Empty or invalid json')
  }
  const isObject = (item: unknown): item is Record<string, unknown> =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
  if (isObject(value)) return [value]
  if (Array.isArray(value) && value.every(isObject)) {
    const keysOf = (row: Record<string, unknown>) => Object.keys(row).sort().join('\u0000')
    const first = value[0]
    if (first === undefined || value.every((row) => keysOf(row) === keysOf(first))) return value
  }
  return invalidBody('All object keys must match')
}

/** `?columns="a","b"` (sent by supabase-js for array inserts) or `?columns=a,b`. */
function parseColumnsParam(raw: string): string[] {
  return raw
    .split(',')
    .map((part) => part.trim().replace(/^"(.*)"$/, '$1'))
    .filter((part) => part !== '')
}

function parsePrefer(header: string | undefined): Map<string, string> {
  const preferences = new Map<string, string>()
  // Unknown or malformed preferences are ignored, as under PostgREST's default handling=lenient.
  for (const part of (header ?? '').split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key && value) preferences.set(key.trim(), value.trim())
  }
  return preferences
}

export function buildInsert(request: InsertRequest): InsertStatement | ApiResponse {
  const { table, rows } = request

  const columnsParam = request.query.get('columns')
  const columns =
    columnsParam !== null ? parseColumnsParam(columnsParam) : Object.keys(rows[0] ?? {})
  // PostgREST reports the alphabetically first unknown column.
  const unknown = columns.filter((column) => !table.columns.has(column)).sort()[0]
  if (unknown !== undefined) return columnNotFound(table, unknown)

  const preferences = parsePrefer(request.prefer)
  const preferenceApplied: string[] = []
  const returnPreference = preferences.get('return')
  const returnsRows = returnPreference === 'representation'
  if (returnPreference === 'minimal' || returnsRows)
    preferenceApplied.push(`return=${returnPreference}`)

  let selectList = '*'
  if (returnsRows) {
    const select = request.query.get('select')
    if (select !== null && select.trim() !== '*') {
      const names = select.split(',').map((name) => name.trim())
      if (!names.every((name) => IDENTIFIER.test(name))) {
        return notImplemented(
          'The local stand-in returns inserted rows only for select=* or a list of column names.',
        )
      }
      selectList = names.map(quote).join(', ')
    }
  }

  const target = `${quote(table.schema)}.${quote(table.name)}`
  const columnList = columns.map(quote).join(', ')
  const source =
    columns.length === 0
      ? // No keys at all (`{}`): every column takes its default (or fails its NOT NULL).
        `select from json_array_elements($1::json)`
      : `select ${columnList} from json_to_recordset($1::json) as _(${columns
          .map((column) => `${quote(column)} ${table.columns.get(column) ?? 'text'}`)
          .join(', ')})`

  let conflict = ''
  const resolution = preferences.get('resolution')
  if (resolution === 'ignore-duplicates' || resolution === 'merge-duplicates') {
    const onConflict = request.query.get('on_conflict')
    const conflictColumns = onConflict !== null ? parseColumnsParam(onConflict) : table.primaryKey
    if (conflictColumns.length > 0) {
      preferenceApplied.push(`resolution=${resolution}`)
      const targetColumns = `(${conflictColumns.map(quote).join(', ')})`
      const updates = columns
        .map((column) => `${quote(column)} = excluded.${quote(column)}`)
        .join(', ')
      conflict =
        resolution === 'merge-duplicates' && updates !== ''
          ? ` on conflict ${targetColumns} do update set ${updates}`
          : ` on conflict ${targetColumns} do nothing`
    }
  }

  const insert = `insert into ${target}${columns.length > 0 ? ` (${columnList})` : ''} ${source}${conflict}`
  const sql = returnsRows
    ? // RETURNING the row needs SELECT on it, exactly as with PostgREST: anon gets 401 here.
      `with pgrst_source as (${insert} returning ${target}.*) ` +
      `select coalesce(json_agg(_), '[]')::text as body from (select ${selectList} from pgrst_source) as _`
    : // `returning 1` reads no column, so an insert-only grant and policy are enough.
      `${insert} returning 1`

  return { sql, params: [JSON.stringify(rows)], returnsRows, preferenceApplied }
}
