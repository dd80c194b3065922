import { notEmulated, refuse } from './errors'

/**
 * The part of PostgREST's URL grammar the staff inbox sends, turned into SQL: `select=` a list of
 * columns (or `*`), filters `column=[not.]eq|gte|lte|is.value`, `order=column[.asc|.desc]
 * [.nullsfirst|.nullslast],...`, `limit` and `offset`. Values travel as parameters, never
 * spliced; identifiers are quoted. What PostgREST cannot parse is its 400 PGRST100; what it can
 * but no client sends (other operators, `on_conflict`, `columns`) is refused as not emulated.
 */

export const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`

/** Parameters PostgREST reads itself, and those of them the stand-in serves. */
const SERVED = new Set(['select', 'order', 'limit', 'offset', 'apikey'])
const NOT_SERVED = new Set(['on_conflict', 'columns'])

const OPERATORS: Record<string, string> = { eq: '=', gte: '>=', lte: '<=' }
const IS_VALUES = new Set(['null', 'true', 'false', 'unknown'])
const POSTGREST_OPERATORS = new Set(
  'neq gt lt in like ilike match imatch fts plfts phfts wfts cs cd ov sl sr nxl nxr adj isdistinct any all'.split(
    ' ',
  ),
)
const ORDER_MODIFIERS: Record<string, string> = {
  asc: 'asc',
  desc: 'desc',
  nullsfirst: 'nulls first',
  nullslast: 'nulls last',
}

export type SqlQuery = {
  /** The select list (`*` or quoted columns). */
  columns: string
  /** `where ...` or the empty string; its values are `params`, numbered from `firstParam`. */
  where: string
  /** `order by ...` or the empty string. */
  orderBy: string
  limit: number | null
  offset: number | null
  params: unknown[]
}

function unparsable(message: string, details: string): never {
  return refuse(400, 'PGRST100', message, details)
}

/** A column name as PostgREST accepts it unquoted: letters, digits, `_`, `$` (no JSON paths here). */
function column(name: string, where: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(name)) {
    unparsable(`"failed to parse ${where}"`, `unexpected "${name}"`)
  }
  return quote(name)
}

function filter(name: string, raw: string, next: (value: unknown) => string): string {
  const target = column(name, 'filter')
  const negated = raw.startsWith('not.')
  const expression = negated ? raw.slice(4) : raw
  const dot = expression.indexOf('.')
  const operator = dot < 0 ? expression : expression.slice(0, dot)
  const value = dot < 0 ? '' : expression.slice(dot + 1)
  let condition: string
  if (OPERATORS[operator]) condition = `${target} ${OPERATORS[operator]} ${next(value)}`
  else if (operator === 'is' && IS_VALUES.has(value.toLowerCase()))
    condition = `${target} is ${value.toLowerCase()}`
  else if (POSTGREST_OPERATORS.has(operator)) return notEmulated(`the filter operator ${operator}`)
  else return unparsable('"failed to parse filter"', `unexpected "${raw}"`)
  return negated ? `not (${condition})` : condition
}

function orderBy(order: string | null): string {
  if (!order) return ''
  const terms = order.split(',').map((term) => {
    const [name = '', ...modifiers] = term.trim().split('.')
    const parts = [column(name, 'order')]
    for (const modifier of modifiers) {
      const sql = ORDER_MODIFIERS[modifier]
      if (!sql) unparsable('"failed to parse order"', `unexpected "${modifier}"`)
      parts.push(sql)
    }
    return parts.join(' ')
  })
  return `order by ${terms.join(', ')}`
}

export function parseQuery(search: URLSearchParams, firstParam = 1): SqlQuery {
  const params: unknown[] = []
  const next = (value: unknown) => (params.push(value), `$${firstParam + params.length - 1}`)
  const select = search.get('select')?.trim() || '*'
  const columns =
    select === '*'
      ? '*'
      : select
          .split(',')
          .map((name) => column(name.trim(), 'select parameter'))
          .join(', ')
  const conditions: string[] = []
  for (const [name, raw] of search) {
    if (NOT_SERVED.has(name)) notEmulated(`the ${name} parameter`)
    if (!SERVED.has(name)) conditions.push(filter(name, raw, next))
  }
  const count = (name: 'limit' | 'offset') => {
    const value = search.get(name)
    if (value === null) return null
    if (!/^\d+$/.test(value)) unparsable(`"failed to parse ${name} parameter"`, value)
    return Number(value)
  }
  return {
    columns,
    where: conditions.length ? `where ${conditions.join(' and ')}` : '',
    orderBy: orderBy(search.get('order')),
    limit: count('limit'),
    offset: count('offset'),
    params,
  }
}
