// @vitest-environment node
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUDGET_VALUES, LIMITS, PROJECT_TYPE_VALUES } from '../src/features/contact/contact-fields'
import { contactSubmissionSchema } from '../src/features/contact/contact-schema'
import { asPgError, type Database } from './local/database'
import { listMigrations, migrate } from './local/migrations'
import { openPgliteDatabase } from './local/pglite-database'

/**
 * The browser's zod schema and the database's check constraints state the same limits twice, by
 * hand (one is TypeScript, the other SQL). These tests keep them equal: first by reading the
 * migrations' text, then by feeding the same edge cases to both.
 */

async function migrationsText(): Promise<string> {
  const files = await listMigrations()
  return (await Promise.all(files.map((file) => readFile(file.path, 'utf8')))).join('\n')
}

/** The expression of the last definition of a named check constraint (later migrations win). */
function checkExpression(sql: string, constraint: string): string {
  const start = sql.lastIndexOf(`constraint ${constraint} check (`)
  if (start === -1) throw new Error(`constraint ${constraint} not found in the migrations`)
  let depth = 0
  const open = sql.indexOf('(', start)
  for (let i = open; i < sql.length; i += 1) {
    if (sql[i] === '(') depth += 1
    if (sql[i] === ')') depth -= 1
    if (depth === 0) return sql.slice(open + 1, i)
  }
  throw new Error(`unbalanced parentheses in ${constraint}`)
}

const quotedValues = (expression: string) =>
  [...expression.matchAll(/'([^']*)'/g)].map((match) => match[1])

describe('the migrations state the limits of contact-fields.ts', () => {
  let sql: string
  beforeAll(async () => {
    sql = await migrationsText()
  })

  it.each([
    { column: 'name', limit: LIMITS.name },
    { column: 'contact', limit: LIMITS.contact },
    { column: 'message', limit: LIMITS.message },
  ])('$column: 1 to $limit characters, already trimmed', ({ column, limit }) => {
    const expression = checkExpression(sql, `contact_submissions_${column}_check`)
    expect(expression).toContain(`char_length(${column}) between 1 and ${limit}`)
    expect(expression).toContain(`${column} = btrim(${column}, E' \\t\\n\\x0B\\f\\r')`)
  })

  it('user_agent: at most LIMITS.userAgent characters', () => {
    expect(checkExpression(sql, 'contact_submissions_user_agent_check')).toContain(
      `char_length(user_agent) <= ${LIMITS.userAgent}`,
    )
  })

  it('project_type: exactly the form option values', () => {
    const values = quotedValues(checkExpression(sql, 'contact_submissions_project_type_check'))
    expect(values.sort()).toEqual([...PROJECT_TYPE_VALUES].sort())
  })

  it('budget: exactly the form option values', () => {
    const values = quotedValues(checkExpression(sql, 'contact_submissions_budget_check'))
    expect(values.sort()).toEqual([...BUDGET_VALUES].sort())
  })

  it('anon may insert exactly the columns of the row the browser sends', () => {
    const grant = /grant insert \(([^)]*)\)\s+on table public\.contact_submissions to anon/.exec(
      sql,
    )
    const columns = grant?.[1]?.split(',').map((column) => column.trim())
    expect(columns?.sort()).toEqual(Object.keys(contactSubmissionSchema.shape).sort())
  })
})

describe('whatever the browser schema accepts, the database accepts', () => {
  let db: Database

  beforeAll(async () => {
    db = await openPgliteDatabase('memory')
    await migrate(db)
  }, 120_000)

  afterAll(async () => {
    await db?.close()
  })

  /** Inserts as anon, the way the API does; returns the constraint error, or null if accepted. */
  async function insertAsAnon(row: Record<string, unknown>): Promise<string | null> {
    try {
      await db.transaction(async (tx) => {
        await tx.exec('set local role anon')
        await tx.query(
          `insert into public.contact_submissions (id, name, contact, project_type, budget, message, user_agent)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [
            row.id,
            row.name,
            row.contact,
            row.project_type,
            row.budget,
            row.message,
            row.user_agent,
          ],
        )
        // Keep the table empty: only the verdict matters.
        await tx.exec('reset role')
        await tx.query('delete from public.contact_submissions where id = $1', [row.id])
      })
      return null
    } catch (error) {
      return asPgError(error)?.message ?? String(error)
    }
  }

  const whitespace = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff']
  const texts = (limit: number) => [
    'a',
    'Viv',
    'x'.repeat(limit),
    'x'.repeat(limit + 1),
    'é'.repeat(limit),
    '😀'.repeat(limit / 2),
    '😀'.repeat(limit / 2 + 1),
    'two\nlines',
    '',
    ...whitespace.flatMap((space) => [space, `${space}a`, `a${space}`, `${space}a${space}`]),
  ]
  const base = {
    id: '5b3b9c76-6c4f-4a39-9d7e-3f0c2d1b8a90',
    name: 'Ada',
    contact: '@ada',
    project_type: null,
    budget: null,
    message: 'Hello',
    user_agent: 'test',
  }
  const samples: { field: string; value: unknown }[] = [
    ...texts(LIMITS.name).map((value) => ({ field: 'name', value })),
    ...texts(LIMITS.contact).map((value) => ({ field: 'contact', value })),
    ...texts(LIMITS.message).map((value) => ({ field: 'message', value })),
    ...['', 'x'.repeat(LIMITS.userAgent), 'x'.repeat(LIMITS.userAgent + 1), ' padded '].map(
      (value) => ({ field: 'user_agent', value }),
    ),
    ...[...PROJECT_TYPE_VALUES, 'Other', 'OTHER', ''].map((value) => ({
      field: 'project_type',
      value,
    })),
    ...[...BUDGET_VALUES, 'Under $10K', ''].map((value) => ({ field: 'budget', value })),
  ]

  it('for every edge case, a row the schema accepts is inserted', async () => {
    let accepted = 0
    for (const { field, value } of samples) {
      const parsed = contactSubmissionSchema.safeParse({ ...base, [field]: value })
      if (!parsed.success) continue
      accepted += 1
      const refusal = await insertAsAnon(parsed.data)
      expect(refusal, `${field} = ${JSON.stringify(value)}`).toBeNull()
    }
    // The samples must exercise the accepting side too, or this test could not fail.
    expect(accepted).toBeGreaterThan(40)
  })

  it('the database refuses the untrimmed and overlong values the schema would have trimmed or refused', async () => {
    for (const value of [' Ada', 'Ada\n', '\t', 'x'.repeat(LIMITS.name + 1)]) {
      expect(await insertAsAnon({ ...base, name: value }), JSON.stringify(value)).toMatch(
        /contact_submissions_name_check/,
      )
    }
  })
})
