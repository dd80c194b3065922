import type { Counts, ListedSubmission, StatusChange, StoredSubmission } from './inbox-store'
import { RESPONSE_HOURS } from '../../src/shared/staff-workflow'
import type { SealedDocument } from '../../src/shared/submission/sealed-document'

/** What `npm run inbox` prints. Values a visitor typed only ever reach `formatSubmission`. */

export function formatDuration(seconds: number): string {
  const minutes = Math.floor(Math.abs(seconds) / 60)
  if (minutes < 1) return '<1m'
  const days = Math.floor(minutes / 1440)
  const hours = Math.floor((minutes % 1440) / 60)
  if (days > 0) return `${days}d ${hours}h`
  return hours > 0 ? `${hours}h ${minutes % 60}m` : `${minutes}m`
}

export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** For a row still `new`: how long until the 24-hour promise is broken, or since when it is. */
function due(row: { status: string; overdue: boolean; age_seconds: number }): string {
  if (row.status !== 'new') return '—'
  const left = RESPONSE_HOURS * 3600 - row.age_seconds
  return row.overdue ? `OVERDUE ${formatDuration(-left)}` : `in ${formatDuration(left)}`
}

function pad(text: string, width: number): string {
  const length = [...text].length
  return length >= width ? text : text + ' '.repeat(width - length)
}

export function formatList(rows: readonly ListedSubmission[], counts: Counts): string {
  if (counts.total === 0) return 'No submissions.'
  const header = ['ref', 'age', 'status', 'due', 'key_id']
  const body = rows.map((row) => [
    row.id.slice(0, 8),
    formatDuration(row.age_seconds),
    row.status,
    due(row),
    row.key_id,
  ])
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => [...(cells[column] ?? '')].length)),
  )
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => pad(cell, widths[column] ?? 0))
      .join('  ')
      .trimEnd()
  const shown = rows.length < counts.total ? `Showing ${rows.length} of ${counts.total}. ` : ''
  return [
    line(header),
    ...body.map(line),
    '',
    `${counts.new} new (${counts.overdue} overdue), ${counts.total} in all. ${shown}Read one: npm run inbox -- show <ref>`,
  ].join('\n')
}

/** C0 and C1 control characters (escape sequences could rewrite the terminal); newline and tab are kept where asked. */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code < 0xa0)
}

/**
 * A visitor's value, in full, but unable to drive the terminal: control characters are shown as
 * \xNN. `multiline` keeps line breaks (the message); elsewhere they are shown as \n.
 */
export function visible(value: unknown, multiline = false): string {
  if (value === null || value === undefined || value === '') return '—'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  let result = ''
  for (const char of text.replace(/\r\n/g, '\n')) {
    const code = char.codePointAt(0) ?? 0
    if (multiline && (char === '\n' || char === '\t')) result += char
    else if (isControl(code)) result += `\\x${code.toString(16).padStart(2, '0')}`
    else result += char
  }
  return result
}

export function formatSubmission(
  row: StoredSubmission,
  opened: { document: SealedDocument; warnings: string[] },
): string {
  const fields = opened.document
  const dueAt = new Date(row.created_at.getTime() + RESPONSE_HOURS * 3600_000)
  const status =
    row.status === 'new' ? `new, answer by ${formatUtc(dueAt)} (${due(row)})` : row.status
  const stamp = (date: Date | null) => (date === null ? '—' : formatUtc(date))
  const label = (name: string) => pad(name, 14)
  const lines = [
    `Submission ${row.id}`,
    `${label('received')}${formatUtc(row.created_at)} (${formatDuration(row.age_seconds)} ago)`,
    `${label('status')}${status}`,
    `${label('responded_at')}${stamp(row.responded_at)}`,
    `${label('completed_at')}${stamp(row.completed_at)}`,
    `${label('sealing')}sealed to key_id ${row.key_id}, opened here`,
    `${label('submitted_at')}${visible(fields.submitted_at)} (the visitor's clock)`,
  ]
  for (const warning of opened.warnings) lines.push(`WARNING: ${warning}`)
  lines.push(
    '',
    `${label('name')}${visible(fields.name)}`,
    `${label('contact')}${visible(fields.contact)}`,
    `${label('project_type')}${visible(fields.project_type)}`,
    `${label('budget')}${visible(fields.budget)}`,
    `${label('user_agent')}${visible(fields.user_agent)}`,
    '',
    'message',
    ...visible(fields.message, true)
      .split('\n')
      .map((line) => `  ${line}`),
  )
  return lines.join('\n')
}

export function formatStatusChange(change: StatusChange): string {
  const stamps = [
    change.responded_at ? `responded_at ${formatUtc(change.responded_at)}` : null,
    change.completed_at ? `completed_at ${formatUtc(change.completed_at)}` : null,
  ].filter((stamp) => stamp !== null)
  const purge =
    change.to === 'completed' || change.to === 'declined'
      ? ' Completed and declined submissions are purged from the live database after 24 hours.'
      : ''
  return `${change.id.slice(0, 8)}: ${change.from} → ${change.to}${stamps.length > 0 ? ` (${stamps.join(', ')})` : ''}.${purge}`
}
