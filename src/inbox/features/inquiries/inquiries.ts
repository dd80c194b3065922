/** Opening and ordering inquiries: loaded with the key, never on the sign-in screen. */
import { BUDGET_OPTIONS, PROJECT_TYPE_OPTIONS } from '../../../shared/submission/fields'
import { openSealedSubmission } from '../../../shared/submission/open-sealed'
import type { SealedDocument } from '../../../shared/submission/sealed-document'
import type { Inquiry, InquiryRow, OptionLabels } from './inquiry'

function optionLabels(document: SealedDocument): OptionLabels {
  const label = (options: readonly { value: string; label: string }[], value: string | null) =>
    options.find((option) => option.value === value)?.label ?? null
  return {
    projectType: label(PROJECT_TYPE_OPTIONS, document.project_type),
    budget: label(BUDGET_OPTIONS, document.budget),
  }
}

export async function openInquiry(
  row: InquiryRow,
  identities: string[],
  overdueIds: ReadonlySet<string>,
): Promise<Inquiry> {
  const overdue = overdueIds.has(row.id)
  if (!row.sealed) return { ...row, overdue, opened: { problem: 'damaged' } }
  const opened = await openSealedSubmission(row.sealed, identities)
  if ('problem' in opened) {
    return {
      ...row,
      overdue,
      opened: { problem: opened.problem === 'other-key' ? 'other-key' : 'damaged' },
    }
  }
  const { document } = opened
  return { ...row, overdue, opened: { document, labels: optionLabels(document) } }
}

/**
 * Unanswered messages first (a visitor wrote in the thread and nobody has answered: the one waiting
 * longest first), then overdue (oldest first), then new (next due first), then the rest (newest
 * first).
 */
export function sortInquiries(inquiries: Inquiry[]): Inquiry[] {
  const rank = (inquiry: Inquiry) =>
    inquiry.awaiting_reply_since ? 0 : inquiry.overdue ? 1 : inquiry.status === 'new' ? 2 : 3
  return [...inquiries].sort((a, b) => {
    const byRank = rank(a) - rank(b)
    if (byRank !== 0) return byRank
    if (a.awaiting_reply_since && b.awaiting_reply_since) {
      return Date.parse(a.awaiting_reply_since) - Date.parse(b.awaiting_reply_since)
    }
    const age = Date.parse(a.created_at) - Date.parse(b.created_at)
    return rank(a) === 3 ? -age : age
  })
}

/**
 * Every row of a query read page by page. A hosted project's API answers at most its "Max rows"
 * (1000 by default, and an agency may lower it), so one request could silently drop the oldest
 * rows, the overdue ones among them. Pages follow on from what actually came, until one is empty.
 */
export async function allPages<Row>(
  page: (from: number, to: number) => Promise<Row[]>,
  size: number,
): Promise<Row[]> {
  const rows: Row[] = []
  for (;;) {
    const next = await page(rows.length, rows.length + size - 1)
    if (next.length === 0) return rows
    rows.push(...next)
  }
}
