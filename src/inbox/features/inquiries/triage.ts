import { referenceOf } from '../../../shared/conversation/reference'
import { copy } from '../../content/copy'
import { formatSpan } from './format'
import { dueAt, purgeAfter, type Inquiry } from './inquiry'

// The query is matched here and nowhere else: never sent, stored, put in an address or a title.

/** "New · due in 23 h", "Overdue by 2 h", "Responded", "Completed · deleted in 20 h". */
export function statusAndDue(inquiry: Inquiry, now = Date.now()): string {
  const status = copy.statuses[inquiry.status]
  if (inquiry.overdue) return copy.list.overdueBy(formatSpan(now - dueAt(inquiry).getTime()))
  if (inquiry.status === 'new') {
    return `${status} · ${copy.list.dueIn(formatSpan(dueAt(inquiry).getTime() - now))}`
  }
  const purge = purgeAfter(inquiry)
  if (purge) return `${status} · ${copy.list.deletedIn(formatSpan(purge.getTime() - now))}`
  return status
}

export type StatusFilter = Inquiry['status'] | 'all'
export type Triage = { query: string; status: StatusFilter; overdueOnly: boolean }
export const NO_TRIAGE: Triage = { query: '', status: 'all', overdueOnly: false }

// Each opened inquiry's searchable text, made once: 2,000 briefs are lowered once, not per key.
const searchTexts = new WeakMap<Inquiry['opened'], string>()

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase()

function searchText(inquiry: Inquiry): string {
  let text = searchTexts.get(inquiry.opened)
  if (text === undefined) {
    const opened = 'document' in inquiry.opened ? inquiry.opened : null
    text = fold(
      [
        referenceOf(inquiry.id),
        opened?.document.name,
        opened?.document.contact,
        opened?.labels.projectType,
        opened?.labels.budget,
        opened?.document.message,
      ]
        .filter(Boolean)
        .join('\n'),
    )
    searchTexts.set(inquiry.opened, text)
  }
  return text
}

/** Every word of the query, case and accents aside. */
export function matchesQuery(inquiry: Inquiry, query: string): boolean {
  return matchesWords(inquiry, queryWords(query))
}

const queryWords = (query: string) => fold(query).split(/\s+/).filter(Boolean)

function matchesWords(inquiry: Inquiry, words: readonly string[]): boolean {
  if (words.length === 0) return true
  const text = searchText(inquiry)
  return words.every((word) => text.includes(word))
}

export function triageInquiries(inquiries: readonly Inquiry[], triage: Triage): Inquiry[] {
  const words = queryWords(triage.query)
  return inquiries.filter(
    (inquiry) =>
      (triage.status === 'all' || inquiry.status === triage.status) &&
      (!triage.overdueOnly || inquiry.overdue) &&
      matchesWords(inquiry, words),
  )
}
