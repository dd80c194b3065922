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
import { keepSealedList, lastSealedList, type SealedList } from './list-cache'

/** The inbox's reads and its one write, through the database's rules for signed-in staff. */

// Exactly InquiryRow's columns (the grants allow these and no other): the typed client checks it.
const COLUMNS =
  'id, key_id, sealed, status, created_at, responded_at, completed_at, responded_by, awaiting_reply_since'
// What a reply or a status change changes on the inquiry, as the database stamped it.
const STAMPED = 'status, responded_at, completed_at, responded_by, awaiting_reply_since'
const PAGE_ROWS = 500

export type ResponseTimes = { p50: string | null; p90: string | null; within_24h: number | null }

export class InboxDataError extends Error {
  /** `closed`: the inquiry is completed or declined, and its thread takes no more messages. */
  constructor(readonly kind: 'no-access' | 'failed' | 'offline' | 'closed') {
    super(kind)
    this.name = 'InboxDataError'
  }
}

function failed(what: string, error: unknown): never {
  // The server's words go to the console only; the page says a sentence.
  console.error(`inbox: ${what} failed`, error)
  throw new InboxDataError('failed')
}

async function checkAccess() {
  const access = await supabase.rpc('inbox_access')
  if (access.error) failed('the access check', access.error)
  if (access.data !== true) throw new InboxDataError('no-access')
}

/** Every sealed row, newest first, page by page (see `allPages`). */
function readAllRows(): Promise<InquiryRow[]> {
  return allPages(async (from, to) => {
    const page = await supabase
      .from('contact_submissions')
      .select(COLUMNS)
      // The id breaks ties, so no row falls between two pages.
      .order('created_at', { ascending: false })
      .order('id')
      .range(from, to)
    if (page.error) failed('reading inquiries', page.error)
    return page.data satisfies InquiryRow[]
  }, PAGE_ROWS)
}

/**
 * The top of the list, asked for first and on its own: the rows with a visitor's message waiting
 * (longest first) and the new ones (oldest, so overdue, first). Two small answers that arrive
 * before the whole list's pages, so the first screen is opened before the rest is even read.
 */
async function readUrgentRows(): Promise<InquiryRow[]> {
  const [waiting, fresh] = await Promise.all([
    supabase
      .from('contact_submissions')
      .select(COLUMNS)
      .not('awaiting_reply_since', 'is', null)
      .order('awaiting_reply_since')
      .order('id')
      .limit(FIRST_SCREEN_ROWS),
    supabase
      .from('contact_submissions')
      .select(COLUMNS)
      .eq('status', 'new')
      .order('created_at')
      .order('id')
      .limit(FIRST_SCREEN_ROWS),
  ])
  if (waiting.error) failed('reading the waiting inquiries', waiting.error)
  if (fresh.error) failed('reading the new inquiries', fresh.error)
  return [...waiting.data, ...fresh.data] satisfies InquiryRow[]
}

/**
 * The inquiry a staff alert links to, by its reference (a few rows at most could share one): read
 * on its own, beside the others, so it is opened and shown before the rest of the list is read.
 */
async function readReferencedRows(reference: string): Promise<InquiryRow[]> {
  const [from, to] = idRangeOfReference(reference)
  const { data, error } = await supabase
    .from('contact_submissions')
    .select(COLUMNS)
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

/** What is open so far while a list is being opened (`total`: null until every page is read). */
export type ListProgress = { inquiries: Inquiry[]; opened: number; total: number | null }

/** Progress is shown at most this often: each showing sorts and renders the list. */
const PROGRESS_MS = 1000

/**
 * Opens rows on the device in slices (see `openInSlices`), most urgent first, into `opened`.
 * A row already opened before (same id, same ciphertext: a refresh) is not opened again, its
 * status and times are taken from the new row.
 */
function rowOpener(identities: string[], { previous = [], signal }: LoadOptions) {
  const known = new Map(previous.map((inquiry) => [inquiry.id, inquiry]))
  const openSealed = sealedSubmissionOpener(identities)
  return (overdueIds: ReadonlySet<string>) =>
    async (row: InquiryRow): Promise<Inquiry> => {
      // Locked (or a newer load began): nothing more is opened with this key.
      signal?.throwIfAborted()
      const before = known.get(row.id)
      if (before && before.sealed === row.sealed) {
        return { ...row, overdue: overdueIds.has(row.id), opened: before.opened }
      }
      return openInquiry(row, identities, overdueIds, openSealed)
    }
}

export type LoadedList = { inquiries: Inquiry[]; offlineSince: string | null }

type LoadOptions = {
  /** Hears the list as it opens: the first screen's rows first, then more every few slices. */
  onProgress?: (progress: ListProgress) => void
  /** The list open now (a refresh): its rows are not opened again. */
  previous?: readonly Inquiry[]
  /** Aborted on lock, or by a newer load: the opening stops at the next row. */
  signal?: AbortSignal
  /** The reference an alert links to: that inquiry is read, opened and heard before any other. */
  reference?: string
}

async function openFresh(identities: string[], options: LoadOptions): Promise<Inquiry[]> {
  const { onProgress = () => {} } = options
  await checkAccess()
  const overdue = readOverdueIds()
  const all = readAllRows()
  // Both are awaited below; a failure of one while the other is awaited is not left unhandled.
  all.catch(() => {})
  const urgent = readUrgentRows()
  urgent.catch(() => {})
  const referenced = options.reference ? readReferencedRows(options.reference) : null
  referenced?.catch(() => {})
  const overdueIds = new Set(await overdue)
  const open = rowOpener(identities, options)(overdueIds)
  const opened = new Map<string, Inquiry>()
  let shownAt = 0
  const show = (total: number | null, force = false) => {
    const now = performance.now()
    if (!force && now - shownAt < PROGRESS_MS) return
    shownAt = now
    onProgress({ inquiries: sortInquiries([...opened.values()]), opened: opened.size, total })
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
  keepSealedList({
    rows,
    overdueIds: [...overdueIds],
    fetchedAt: new Date().toISOString(),
  }).catch((failure: unknown) => console.error('inbox: keeping the list failed', failure))
  return sortInquiries([...opened.values()])
}

async function openKept(
  list: SealedList,
  identities: string[],
  options: LoadOptions,
): Promise<Inquiry[]> {
  const { onProgress = () => {} } = options
  const overdueIds = new Set(list.overdueIds)
  const open = rowOpener(identities, options)(overdueIds)
  const opened = await openInSlices(sortSealedRows(list.rows, overdueIds), open, (done) =>
    onProgress({
      inquiries: sortInquiries([...done]),
      opened: done.length,
      total: list.rows.length,
    }),
  )
  return sortInquiries(opened)
}

/**
 * The list, opened with the unlocked key: fresh from the server, or, when the server cannot be
 * reached, the last one fetched on this device (with when it was fetched). An account without
 * access gets no list at all, kept or not. Opened in slices, most urgent first: `onProgress`
 * hears it as it opens.
 */
export async function loadInquiries(
  identities: string[],
  options: LoadOptions = {},
): Promise<LoadedList> {
  try {
    return { inquiries: await openFresh(identities, options), offlineSince: null }
  } catch (failure) {
    if (failure instanceof InboxDataError && failure.kind === 'no-access') throw failure
    if (options.signal?.aborted) throw failure
    const kept = await lastSealedList()
    if (!kept) throw failure
    return { inquiries: await openKept(kept, identities, options), offlineSince: kept.fetchedAt }
  }
}

export async function loadResponseTimes(): Promise<ResponseTimes | null> {
  const { data, error } = await supabase.from('inbox_response_times').select('p50, p90, within_24h')
  if (error) failed('reading response times', error)
  return (data[0] as ResponseTimes | undefined) ?? null
}

/** Offline, a status change is refused (not queued): see the README, "The staff inbox". */
export async function setStatus(id: string, status: SettableStatus) {
  if (!navigator.onLine) throw new InboxDataError('offline')
  const { data, error } = await supabase
    .from('contact_submissions')
    .update({ status })
    .eq('id', id)
    .select(STAMPED)
    .single()
  if (error) failed('changing the status', error)
  return data
}

/** An inquiry's thread after the inquiry itself, sealed as stored, oldest first. */
export async function loadThreadRows(submissionId: string): Promise<ThreadRow[]> {
  if (!navigator.onLine) throw new InboxDataError('offline')
  const { data, error } = await supabase
    .from('contact_messages')
    .select('id, direction, sealed, author_email, created_at')
    .eq('submission_id', submissionId)
    .order('created_at')
    .order('id')
  if (error) failed('reading the thread', error)
  return data
}

/** A sealed reply as staff insert it; the database stamps its direction, author and time. */
export type SealedReply = { id: string; submission_id: string; sealed: string }

/**
 * Stores a sealed reply and answers the inquiry as the database then holds it (responded, by
 * whom, when). A reply sent again after a lost answer (the same id) is already stored: the
 * database's 409 (23505) means delivered. Offline, it is refused, not queued (as a status change).
 */
export async function insertReply(reply: SealedReply) {
  if (!navigator.onLine) throw new InboxDataError('offline')
  const { error } = await supabase.from('contact_messages').insert(reply)
  // The database's refusal of a closed thread is an answer, not a failure: a sentence says it.
  if (error?.code === 'thread_closed') throw new InboxDataError('closed')
  if (error && error.code !== '23505') failed('sending the reply', error)
  const { data, error: readError } = await supabase
    .from('contact_submissions')
    .select(STAMPED)
    .eq('id', reply.submission_id)
    .single()
  if (readError) failed('reading the answered inquiry', readError)
  return data
}
