import { BUDGET_OPTIONS, PROJECT_TYPE_OPTIONS } from '../../../shared/submission/fields'
import { openSealedSubmission, type OpenedSubmission } from '../../../shared/submission/open-sealed'
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

/** One row opened with the identities, or with `open` (which parses them once for many rows). */
export async function openInquiry(
  row: InquiryRow,
  identities: readonly string[],
  overdueIds: ReadonlySet<string>,
  open: (sealed: string) => Promise<OpenedSubmission> = (sealed) =>
    openSealedSubmission(sealed, identities),
): Promise<Inquiry> {
  const overdue = overdueIds.has(row.id)
  if (!row.sealed) return { ...row, overdue, opened: { problem: 'damaged' } }
  const opened = await open(row.sealed)
  if ('problem' in opened) {
    return {
      ...row,
      overdue,
      opened: { problem: opened.problem === 'other-key' ? 'other-key' : 'damaged' },
    }
  }
  const { document } = opened
  if (document.id !== row.id) return { ...row, overdue, opened: { problem: 'wrong-id' } }
  return { ...row, overdue, opened: { document, labels: optionLabels(document) } }
}

/** Where a row stands in the list, from its unsealed columns alone: 0 is the most urgent. */
export const urgencyRank = (row: InquiryRow, overdue: boolean) =>
  row.awaiting_reply_since ? 0 : overdue ? 1 : row.status === 'new' ? 2 : 3

/**
 * Rows in urgency order, each row's place worked out once: parsing two dates in each of 2,000
 * rows' 22,000 comparisons costs a phone some 200 ms. Stable: rows alike keep their order.
 */
function byUrgency<Row extends InquiryRow>(rows: readonly Row[], overdue: (row: Row) => boolean) {
  return rows
    .map((row) => {
      const rank = urgencyRank(row, overdue(row))
      const created = Date.parse(row.created_at)
      // The longest waiting first, the oldest overdue and new first, the rest newest first.
      const key =
        rank === 0 ? Date.parse(row.awaiting_reply_since ?? '') : rank === 3 ? -created : created
      return { row, rank, key }
    })
    .sort((a, b) => a.rank - b.rank || a.key - b.key)
    .map(({ row }) => row)
}

/** Unanswered messages first (longest waiting first), overdue, new, then the rest. */
export function sortInquiries(inquiries: Inquiry[]): Inquiry[] {
  return byUrgency(inquiries, (inquiry) => inquiry.overdue)
}

/** So the first screen's rows are opened first. */
export function sortSealedRows(rows: InquiryRow[], overdueIds: ReadonlySet<string>): InquiryRow[] {
  return byUrgency(rows, (row) => overdueIds.has(row.id))
}

/**
 * The ids a reference (an id's first 8 characters) can stand for, as a range: UUIDs order as
 * their text does, so the primary key's index finds them from the reference alone.
 */
export function idRangeOfReference(reference: string): [from: string, to: string] {
  return [`${reference}-0000-0000-0000-000000000000`, `${reference}-ffff-ffff-ffff-ffffffffffff`]
}

export const FIRST_SCREEN_ROWS = 12
/** The longest a slice of opening keeps the page busy before it lets input and painting in. */
export const SLICE_MS = 40

/** A new task (input and rendering run first); unlike `setTimeout`, unclamped in a background tab. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}

/** Rows opened at once: their WebCrypto steps (X25519) overlap instead of queueing one by one. */
export const PARALLEL_ROWS = 8

/**
 * Opens rows in order, a few at once, in slices of at most `sliceMs` between which the page takes
 * input and paints: 2,000 rows never freeze it. `onSlice` hears what is open so far: after the
 * first screen's rows, after every slice, and at the end.
 */
export async function openInSlices<Row, Opened>(
  rows: readonly Row[],
  open: (row: Row) => Promise<Opened>,
  onSlice: (opened: readonly Opened[]) => void,
  {
    sliceMs = SLICE_MS,
    firstScreen = FIRST_SCREEN_ROWS,
    parallel = PARALLEL_ROWS,
    now = () => performance.now(),
  } = {},
): Promise<Opened[]> {
  const opened: Opened[] = []
  let sliceStart = now()
  while (opened.length < rows.length) {
    // The first screen ends a batch of its own, so it is heard as soon as it is open.
    const until = opened.length < firstScreen ? firstScreen : rows.length
    const batch = rows.slice(opened.length, Math.min(until, opened.length + parallel))
    opened.push(...(await Promise.all(batch.map(open))))
    if (opened.length === firstScreen || now() - sliceStart >= sliceMs) {
      if (opened.length < rows.length) {
        onSlice(opened)
        await nextTask()
      }
      sliceStart = now()
    }
  }
  onSlice(opened)
  return opened
}

/**
 * Every row of a query, page by page until one is empty: a hosted project answers at most its
 * "Max rows" (1000 by default), so one request could silently drop the oldest, overdue rows.
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
