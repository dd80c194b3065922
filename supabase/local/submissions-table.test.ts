// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { formatSubmissionsTable, type SubmissionRow } from './submissions-table'

const submission = (overrides: Partial<SubmissionRow> = {}): SubmissionRow => ({
  created_at: new Date('2026-01-02T03:04:05.678Z'),
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Ada Lovelace',
  contact: 'ada@example.com',
  project_type: 'community-building',
  budget: null,
  message: 'Hello',
  user_agent: 'Mozilla/5.0',
  ...overrides,
})

describe('formatSubmissionsTable', () => {
  it('prints one line per submission with its fields and a count', () => {
    const table = formatSubmissionsTable([submission()], 3)
    const lines = table.split('\n')
    expect(lines[0]).toMatch(/^created_at \(UTC\) +│ id +│ name/)
    expect(lines[2]).toContain(
      '2026-01-02 03:04:05 │ 11111111-1111-4111-8111-111111111111 │ Ada Lovelace',
    )
    expect(lines[2]).toContain('community-building')
    expect(lines[2]).toContain('│ —') // the null budget
    expect(table).toContain('1 of 3 submission(s), newest first.')
  })

  it('keeps each submission on one line, whatever the visitor typed', () => {
    const table = formatSubmissionsTable(
      [submission({ message: 'one\r\ntwo\nthree\u001b[31mred', name: 'tab\there' })],
      1,
    )
    const line = table.split('\n')[2] ?? ''
    expect(line).toContain('one ⏎ two ⏎ three [31mred')
    expect(line).toContain('tab here')
    expect([...line].filter((char) => char.charCodeAt(0) < 0x20)).toEqual([])
  })

  it('shortens long values with an ellipsis', () => {
    const line =
      formatSubmissionsTable([submission({ message: 'm'.repeat(500) })], 1).split('\n')[2] ?? ''
    expect(line).toContain(`${'m'.repeat(47)}…`)
    expect(line).not.toContain('m'.repeat(48))
  })

  it('says so when there is nothing to show', () => {
    expect(formatSubmissionsTable([], 0)).toBe('No submissions yet.')
  })
})
