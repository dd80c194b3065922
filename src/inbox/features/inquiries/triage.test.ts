// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { NIGHT_OWL } from '../../../shared/submission/submission-test-fixtures'
import type { Inquiry } from './inquiry'
import { matchesQuery, NO_TRIAGE, statusAndDue, triageInquiries } from './triage'

const HOUR = 3_600_000
const NOW = Date.parse('2026-11-24T12:00:00Z')

function inquiry(
  id: string,
  hoursAgo: number,
  more: Partial<Inquiry> = {},
  fields: { name?: string; message?: string } = {},
): Inquiry {
  return {
    id,
    key_id: '0000000000000000',
    sealed: 'sealed',
    status: 'new',
    created_at: new Date(NOW - hoursAgo * HOUR).toISOString(),
    responded_at: null,
    completed_at: null,
    responded_by: null,
    awaiting_reply_since: null,
    overdue: false,
    opened: {
      document: {
        v: 1,
        id,
        name: fields.name ?? 'Ada Lovelace',
        contact: '@ada_l',
        project_type: 'crypto/web3-launch',
        budget: '25k-50k',
        message: fields.message ?? 'A quiet token launch.',
        user_agent: 'test',
        submitted_at: new Date(NOW - hoursAgo * HOUR).toISOString(),
        reply_to: NIGHT_OWL.reply_to,
        signing_key: NIGHT_OWL.signing_key,
        attachments: [],
        pad: '',
      },
      labels: { projectType: 'Crypto / Web3 launch', budget: '$25k–$50k' },
    },
    ...more,
  }
}

describe('statusAndDue', () => {
  it('says the status and the due time as two facts, from the 24-hour rule', () => {
    expect(statusAndDue(inquiry('a', 0.5), NOW)).toBe('New · due in 23 h')
    expect(statusAndDue(inquiry('a', 23.5), NOW)).toBe('New · due in 30 min')
    expect(statusAndDue(inquiry('a', 26, { overdue: true }), NOW)).toBe('Overdue by 2 h')
    expect(statusAndDue(inquiry('a', 80, { overdue: true }), NOW)).toBe('Overdue by 2 d')
    expect(statusAndDue(inquiry('a', 30, { status: 'responded' }), NOW)).toBe('Responded')
  })

  it('says when a closed inquiry will be deleted (the hourly purge, 24 hours after closing)', () => {
    const closed = inquiry('a', 30, {
      status: 'declined',
      completed_at: new Date(NOW - 5 * HOUR).toISOString(),
    })
    expect(statusAndDue(closed, NOW)).toBe('Declined · deleted in 20 h')
  })
})

describe('search and filters', () => {
  const list = [
    inquiry('1a2b3c4d-0000', 1, {}, { name: 'Zoë Ártist', message: 'Gallery opening in May' }),
    inquiry('9f8e7d6c-0000', 30, { overdue: true }, { name: 'Bo', message: 'A DAO treasury' }),
    inquiry('5a5a5a5a-0000', 50, { status: 'completed' }, { name: 'Cy', message: 'Done deal' }),
  ]
  const ids = (found: Inquiry[]) => found.map((found) => found.id.slice(0, 8))

  it('finds words in the name, brief, contact and reference, ignoring case and accents', () => {
    expect(ids(triageInquiries(list, { ...NO_TRIAGE, query: 'zoe artist' }))).toEqual(['1a2b3c4d'])
    expect(ids(triageInquiries(list, { ...NO_TRIAGE, query: 'TREASURY dao' }))).toEqual([
      '9f8e7d6c',
    ])
    expect(ids(triageInquiries(list, { ...NO_TRIAGE, query: '5a5a5a' }))).toEqual(['5a5a5a5a'])
    expect(triageInquiries(list, { ...NO_TRIAGE, query: '@ada_l' })).toHaveLength(3)
    expect(triageInquiries(list, { ...NO_TRIAGE, query: 'gallery treasury' })).toHaveLength(0)
    expect(triageInquiries(list, { ...NO_TRIAGE, query: '   ' })).toHaveLength(3)
  })

  it('filters by status and by overdue, with the search', () => {
    expect(ids(triageInquiries(list, { ...NO_TRIAGE, status: 'completed' }))).toEqual(['5a5a5a5a'])
    expect(ids(triageInquiries(list, { ...NO_TRIAGE, overdueOnly: true }))).toEqual(['9f8e7d6c'])
    expect(
      triageInquiries(list, { query: 'gallery', status: 'new', overdueOnly: true }),
    ).toHaveLength(0)
  })

  it('finds a row that could not be opened by its reference only', () => {
    const damaged = { ...inquiry('deadbeef-0000', 1), opened: { problem: 'damaged' as const } }
    expect(matchesQuery(damaged, 'deadbeef')).toBe(true)
    expect(matchesQuery(damaged, 'ada')).toBe(false)
  })
})
