import type { Queryable } from './database'

/** The latest submissions, newest first, as staff read them locally. */

export type SubmissionRow = {
  created_at: Date | string
  id: string
  name: string
  contact: string
  project_type: string | null
  budget: string | null
  message: string
  user_agent: string
}

export async function readLatestSubmissions(
  db: Queryable,
  limit: number,
): Promise<{ rows: SubmissionRow[]; total: number }> {
  const rows = await db.query<SubmissionRow>(
    `select created_at, id, name, contact, project_type, budget, message, user_agent
       from public.contact_submissions
      order by created_at desc, id
      limit $1`,
    [limit],
  )
  const [count] = await db.query<{ total: number }>(
    'select count(*)::int as total from public.contact_submissions',
  )
  return { rows, total: count?.total ?? 0 }
}

const COLUMNS: { key: keyof SubmissionRow; title: string; width: number }[] = [
  { key: 'created_at', title: 'created_at (UTC)', width: 19 },
  { key: 'id', title: 'id', width: 36 },
  { key: 'name', title: 'name', width: 24 },
  { key: 'contact', title: 'contact', width: 28 },
  { key: 'project_type', title: 'project_type', width: 28 },
  { key: 'budget', title: 'budget', width: 9 },
  { key: 'message', title: 'message', width: 48 },
]

/** C0 and C1 control characters: tabs, escape sequences that could recolour or move the terminal. */
function isControl(char: string): boolean {
  const code = char.codePointAt(0) ?? 0
  return code < 0x20 || (code >= 0x7f && code < 0xa0)
}

/** One line per cell: control characters (line breaks, tabs, escape codes) never reach the terminal. */
function cell(value: unknown, width: number): string {
  const text =
    value === null || value === undefined
      ? '—'
      : value instanceof Date
        ? value.toISOString().slice(0, 19).replace('T', ' ')
        : String(value)
  const flat = [...text.replace(/\r\n|[\r\n]/g, ' ⏎ ')]
    .map((char) => (isControl(char) ? ' ' : char))
    .join('')
  const chars = [...flat]
  return chars.length > width
    ? `${chars.slice(0, width - 1).join('')}…`
    : flat + ' '.repeat(width - chars.length)
}

export function formatSubmissionsTable(rows: readonly SubmissionRow[], total: number): string {
  if (rows.length === 0) return 'No submissions yet.'
  const line = (cells: string[]) => cells.join(' │ ').trimEnd()
  const header = line(COLUMNS.map((column) => cell(column.title, column.width)))
  const rule = COLUMNS.map((column) => '─'.repeat(column.width)).join('─┼─')
  const body = rows.map((row) => line(COLUMNS.map((column) => cell(row[column.key], column.width))))
  return [
    header,
    rule,
    ...body,
    '',
    `${rows.length} of ${total} submission(s), newest first.`,
  ].join('\n')
}
