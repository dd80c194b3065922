import { refuse } from './errors'

/**
 * The part of PostgREST's URL grammar the staff inbox uses, turned into SQL: `select=` a list of
 * columns (or `*`), horizontal filters `column=[not.]op.value` (eq, neq, gt, gte, lt, lte, is,
 * in), `order=column[.asc|.desc][.nullsfirst|.nullslast],...`, `limit` and `offset`. Values
 * travel as parameters, never spliced; identifiers are quoted. Anything else is refused as
 * PostgREST refuses what it cannot parse (400, PGRST100), naming what this stand-in serves.
 */

export const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`

/** Parameters PostgREST reads itself; every other one is a filter. */
const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'on_conflict', 'columns', 'apikey'])

const OPERATORS: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
}

const IS_VALUES: Record<string, string> = {
  null: 'null',
  true: 'true',
  false: 'false',
  unknown: 'unknown',
}

export type SqlQuery = {
  /** The select list (`*` or quoted columns). */
  columns: string
  /** `where ...` or the empty string; its values are `params`, numbered from `firstParam`. */
  where: string
  /** `order by ...` or the empty string. */
  orderBy: string
  /** `limit` and `offset` as given (ranges: rest-range.ts). */
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

function parseList(value: string): string[] {
  // in.(a,b,"c,d"): double quotes keep commas and parentheses inside one value.
  const inner = /^\((.*)\)$/.exec(value)?.[1]
  if (inner === undefined) unparsable('"failed to parse filter"', `expected a list, got "${value}"`)
  const items: string[] = []
  for (const match of inner.matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)) {
    items.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? '').trim())
  }
  return items
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
    if (RESERVED.has(name)) continue
    const target = column(name, 'filter')
    const negated = raw.startsWith('not.')
    const expression = negated ? raw.slice(4) : raw
    const dot = expression.indexOf('.')
    const operator = dot < 0 ? expression : expression.slice(0, dot)
    const value = dot < 0 ? '' : expression.slice(dot + 1)
    let condition: string
    if (OPERATORS[operator]) condition = `${target} ${OPERATORS[operator]} ${next(value)}`
    else if (operator === 'in') condition = `${target} = any(${next(parseList(value))})`
    else if (operator === 'is' && IS_VALUES[value.toLowerCase()])
      condition = `${target} is ${IS_VALUES[value.toLowerCase()]}`
    else
      return unparsable(
        '"failed to parse filter"',
        `The local stand-in serves eq, neq, gt, gte, lt, lte, is and in; got "${raw}"`,
      )
    conditions.push(negated ? `not (${condition})` : condition)
  }

  const order = search.get('order')
  const orderBy = order
    ? `order by ${order
        .split(',')
        .map((term) => {
          const [name = '', ...modifiers] = term.trim().split('.')
          const parts = [column(name, 'order')]
          for (const modifier of modifiers) {
            const sql = {
              asc: 'asc',
              desc: 'desc',
              nullsfirst: 'nulls first',
              nullslast: 'nulls last',
            }[modifier]
            if (!sql) unparsable('"failed to parse order"', `unexpected "${modifier}"`)
            parts.push(sql)
          }
          return parts.join(' ')
        })
        .join(', ')}`
    : ''

  const count = (name: 'limit' | 'offset') => {
    const value = search.get(name)
    if (value === null) return null
    if (!/^\d+$/.test(value)) unparsable(`"failed to parse ${name} parameter"`, value)
    return Number(value)
  }
  const limit = count('limit')
  const offset = count('offset')

  return {
    columns,
    where: conditions.length ? `where ${conditions.join(' and ')}` : '',
    orderBy,
    limit,
    offset,
    params,
  }
}
