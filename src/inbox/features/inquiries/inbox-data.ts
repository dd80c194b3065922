import { STATEMENT_TIMEOUT } from '../../../shared/api/outcome'
import type { SettableStatus } from '../../../shared/staff-workflow'
import { sealedSubmissionOpener } from '../../../shared/submission/open-sealed'
import { supabase } from '../../lib/supabase-client'
import type { ThreadRow } from '../conversation/thread'
import type { Inquiry, InquiryRow } from './inquiry'
import {
  allPages,
  FIRST_SCREEN_ROWS,
  idRangeOfReference,
  openInquiry,
  openInSlices,
  sortInquiries,
  sortSealedRows,
} from './inquiries'
import { pinBook, type PinBook } from './inquiry-pins'
import { keepSealedList, lastSealedList, type SealedList } from './list-cache'

// Exactly InquiryRow's columns (the grants allow these and no other): the typed client checks it.
const COLUMNS =
  'id, key_id, sealed, status, created_at, responded_at, completed_at, responded_by, awaiting_reply_since'
const STAMPED = 'status, responded_at, completed_at, responded_by, awaiting_reply_since'
const PAGE_ROWS = 500

export type ResponseTimes = {
  responded: number
  p50: string | null
  p90: string | null
  within_24h: number | null
  closed_unanswered: number
}
export type Stamped = Pick<
  InquiryRow,
  'status' | 'responded_at' | 'completed_at' | 'responded_by' | 'awaiting_reply_since'
>

export type ListOutcome =
  | { kind: 'list'; inquiries: Inquiry[]; offlineSince: string | null }
  | { kind: 'no-access' }
  | { kind: 'failed' }
export type WriteOutcome =
  | { kind: 'stored'; stamped: Stamped }
  /** A change offline is refused, not queued: colleagues would read what the database has not. */
  | { kind: 'offline' }
  | { kind: 'closed' }
  /** The database cancelled the statement (its timeout): nothing was stored, try again. */
  | { kind: 'busy' }
  | { kind: 'failed' }

class Refused extends Error {
  constructor(readonly kind: 'no-access' | 'failed') {
    super(kind)
  }
}

function failed(what: string, error: unknown): never {
  // The server's words go to the console only; the page says a sentence.
  console.error(`inbox: ${what} failed`, error)
  throw new Refused('failed')
}

async function checkAccess() {
  const access = await supabase.rpc('inbox_access')
  if (access.error) failed('the access check', access.error)
  if (access.data !== true) throw new Refused('no-access')
}

const select = () => supabase.from('contact_submissions').select(COLUMNS)

function readAllRows(): Promise<InquiryRow[]> {
  return allPages(async (from, to) => {
    // The id breaks ties, so no row falls between two pages.
    const page = await select()
      .order('created_at', { ascending: false })
      .order('id')
      .range(from, to)
    if (page.error) failed('reading inquiries', page.error)
    return page.data satisfies InquiryRow[]
  }, PAGE_ROWS)
}

/** The first screen's rows: two small answers that arrive before the whole list's pages. */
async function readUrgentRows(): Promise<InquiryRow[]> {
  const [waiting, fresh] = await Promise.all([
    select()
      .not('awaiting_reply_since', 'is', null)
      .order('awaiting_reply_since')
      .order('id')
      .limit(FIRST_SCREEN_ROWS),
    select().eq('status', 'new').order('created_at').order('id').limit(FIRST_SCREEN_ROWS),
  ])
  if (waiting.error) failed('reading the waiting inquiries', waiting.error)
  if (fresh.error) failed('reading the new inquiries', fresh.error)
  return [...waiting.data, ...fresh.data] satisfies InquiryRow[]
}

/** The inquiry a staff alert links to, by its reference (a few rows at most could share one). */
async function readReferencedRows(reference: string): Promise<InquiryRow[]> {
  const [from, to] = idRangeOfReference(reference)
  const { data, error } = await select()
    .gte('id', from)
    .lte('id', to)
    .order('id')
    .limit(FIRST_SCREEN_ROWS)
  if (error) failed('reading the linked inquiry', error)
  return data satisfies InquiryRow[]
}

function readOverdueIds(): Promise<string[]> {
  return allPages(async (from, to) => {
    const page = await supabase
      .from('inbox_overdue_submissions')
      .select('id')
      .order('id')
      .range(from, to)
    if (page.error) failed('reading the overdue view', page.error)
    return page.data
  }, PAGE_ROWS).then((rows) => rows.map((row) => row.id))
}

/** `total`: null until every page is read. */
export type ListProgress = { inquiries: Inquiry[]; opened: number; total: number | null }

/** Progress is shown at most this often: each showing sorts and renders the list. */
const PROGRESS_MS = 1000

type LoadOptions = {
  onProgress: (progress: ListProgress) => void
  /** The list open now (a refresh): a row with the same id and ciphertext is not opened again. */
  previous: readonly Inquiry[]
  signal: AbortSignal
  /** An alert's reference: that inquiry is read, opened and heard before any other. */
  reference: string | null
}

function rowOpener(identities: string[], pins: PinBook, { previous, signal }: LoadOptions) {
  const known = new Map(previous.map((inquiry) => [inquiry.id, inquiry]))
  const openSealed = sealedSubmissionOpener(identities)
  return (overdueIds: ReadonlySet<string>) =>
    async (row: InquiryRow): Promise<Inquiry> => {
      signal.throwIfAborted()
      const before = known.get(row.id)
      if (before && before.sealed === row.sealed) {
        return { ...row, overdue: overdueIds.has(row.id), opened: before.opened }
      }
      return pins.check(await openInquiry(row, identities, overdueIds, openSealed))
    }
}

async function openFresh(
  identities: string[],
  pins: PinBook,
  options: LoadOptions,
): Promise<Inquiry[]> {
  await checkAccess()
  const overdue = readOverdueIds()
  const all = readAllRows()
  // Each is awaited below; one failing while another is awaited is not left unhandled.
  all.catch(() => {})
  const urgent = readUrgentRows()
  urgent.catch(() => {})
  const referenced = options.reference ? readReferencedRows(options.reference) : null
  referenced?.catch(() => {})
  const overdueIds = new Set(await overdue)
  const open = rowOpener(identities, pins, options)(overdueIds)
  const opened = new Map<string, Inquiry>()
  let shownAt = 0
  const show = (total: number | null, force = false) => {
    const now = performance.now()
    if (!force && now - shownAt < PROGRESS_MS) return
    shownAt = now
    options.onProgress({
      inquiries: sortInquiries([...opened.values()]),
      opened: opened.size,
      total,
    })
  }

  // The alert's inquiry before the first screen: the person came for it.
  if (referenced) {
    for (const inquiry of await Promise.all((await referenced).map(open)))
      opened.set(inquiry.id, inquiry)
    if (opened.size > 0) show(null, true)
  }
  const firstScreen = sortSealedRows(
    (await urgent).filter((row) => !opened.has(row.id)),
    overdueIds,
  ).slice(0, FIRST_SCREEN_ROWS)
  await openInSlices(firstScreen, open, (done) => done.forEach((i) => opened.set(i.id, i)))
  show(null, true)
  await pins.keep()

  // A row that arrived between two pages pushes one row of the first into the second: once.
  const rows = [...new Map((await all).map((row) => [row.id, row])).values()]
  const rest = sortSealedRows(
    rows.filter((row) => opened.get(row.id)?.sealed !== row.sealed),
    overdueIds,
  )
  // The urgent rows were read a moment before the pages: the pages' columns are the newer.
  for (const row of rows) {
    const first = opened.get(row.id)
    if (first) opened.set(row.id, { ...first, ...row, overdue: overdueIds.has(row.id) })
  }
  const present = new Set(rows.map((row) => row.id))
  for (const id of opened.keys()) if (!present.has(id)) opened.delete(id)
  let added = 0
  await openInSlices(rest, open, (done) => {
    for (; added < done.length; added += 1) opened.set(done[added]!.id, done[added]!)
    show(rows.length)
  })
  // Kept for reading offline once all is open: storing 2,000 rows is work the first screen skips.
  keepSealedList({ rows, overdueIds: [...overdueIds], fetchedAt: new Date().toISOString() }).catch(
    (failure: unknown) => console.error('inbox: keeping the list failed', failure),
  )
  return sortInquiries([...opened.values()])
}

async function openKept(
  list: SealedList,
  identities: string[],
  pins: PinBook,
  options: LoadOptions,
) {
  const overdueIds = new Set(list.overdueIds)
  const open = rowOpener(identities, pins, options)(overdueIds)
  const opened = await openInSlices(sortSealedRows(list.rows, overdueIds), open, (done) =>
    options.onProgress({
      inquiries: sortInquiries([...done]),
      opened: done.length,
      total: list.rows.length,
    }),
  )
  return sortInquiries(opened)
}

/**
 * The list, opened most urgent first: fresh, or, when the server cannot be reached, the last one
 * fetched on this device. An account without access gets none, kept or not. An aborted load throws.
 */
export async function loadInquiries(
  identities: string[],
  options: LoadOptions,
): Promise<ListOutcome> {
  const pins = await pinBook(identities)
  try {
    const inquiries = await openFresh(identities, pins, options)
    await pins.keep()
    return { kind: 'list', inquiries, offlineSince: null }
  } catch (failure) {
    options.signal.throwIfAborted()
    if (failure instanceof Refused && failure.kind === 'no-access') return { kind: 'no-access' }
    const kept = await lastSealedList()
    if (!kept) return { kind: 'failed' }
    const inquiries = await openKept(kept, identities, pins, options)
    await pins.keep()
    return { kind: 'list', inquiries, offlineSince: kept.fetchedAt }
  }
}

export async function loadResponseTimes(): Promise<ResponseTimes | null> {
  const { data, error } = await supabase
    .from('inbox_response_times')
    .select('responded, p50, p90, within_24h, closed_unanswered')
  if (error) console.error('inbox: reading response times failed', error)
  return (data?.[0] as ResponseTimes | undefined) ?? null
}

async function stampedOf(id: string): Promise<WriteOutcome> {
  const { data, error } = await supabase
    .from('contact_submissions')
    .select(STAMPED)
    .eq('id', id)
    .single()
  if (error) console.error('inbox: reading the changed inquiry failed', error)
  return error ? { kind: 'failed' } : { kind: 'stored', stamped: data }
}

export async function setStatus(id: string, status: SettableStatus): Promise<WriteOutcome> {
  if (!navigator.onLine) return { kind: 'offline' }
  const { data, error } = await supabase
    .from('contact_submissions')
    .update({ status })
    .eq('id', id)
    .select(STAMPED)
    .single()
  if (!error) return { kind: 'stored', stamped: data }
  console.error('inbox: changing the status failed', error)
  return { kind: 'failed' }
}

export type ThreadRows =
  { kind: 'rows'; rows: ThreadRow[] } | { kind: 'offline' } | { kind: 'failed' }

export async function loadThreadRows(submissionId: string): Promise<ThreadRows> {
  if (!navigator.onLine) return { kind: 'offline' }
  const { data, error } = await supabase
    .from('contact_messages')
    .select('id, direction, sealed, author_email, created_at')
    .eq('submission_id', submissionId)
    .order('created_at')
    .order('id')
  if (!error) return { kind: 'rows', rows: data }
  console.error('inbox: reading the thread failed', error)
  return { kind: navigator.onLine ? 'failed' : 'offline' }
}

/** The database stamps a reply's direction, author and time. */
export type SealedReply = { id: string; submission_id: string; sealed: string }

/** A reply sent again after a lost answer (the same id) is stored already: 23505 is delivered. */
export async function insertReply(reply: SealedReply): Promise<WriteOutcome> {
  if (!navigator.onLine) return { kind: 'offline' }
  const { error } = await supabase.from('contact_messages').insert(reply)
  if (error?.code === 'thread_closed') return { kind: 'closed' }
  if (error?.code === STATEMENT_TIMEOUT) return { kind: 'busy' }
  if (!error || error.code === '23505') return stampedOf(reply.submission_id)
  console.error('inbox: sending the reply failed', error)
  return { kind: 'failed' }
}
