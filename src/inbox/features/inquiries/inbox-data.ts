import type { SettableStatus } from '../../../shared/staff-workflow'
import { supabase } from '../../lib/supabase-client'
import type { ThreadRow } from '../conversation/thread'
import type { Inquiry, InquiryRow } from './inquiry'
import { allPages, openInquiry, sortInquiries } from './inquiries'
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

/** The sealed rows and the overdue view, as the server sends them; kept for reading offline. */
async function fetchSealedList(): Promise<SealedList> {
  const access = await supabase.rpc('inbox_access')
  if (access.error) failed('the access check', access.error)
  if (access.data !== true) throw new InboxDataError('no-access')
  const [rows, overdue] = await Promise.all([
    allPages(async (from, to) => {
      const page = await supabase
        .from('contact_submissions')
        .select(COLUMNS)
        // The id breaks ties, so no row falls between two pages.
        .order('created_at', { ascending: false })
        .order('id')
        .range(from, to)
      if (page.error) failed('reading inquiries', page.error)
      return page.data satisfies InquiryRow[]
    }, PAGE_ROWS),
    allPages(async (from, to) => {
      const page = await supabase
        .from('inbox_overdue_submissions')
        .select('id')
        .order('id')
        .range(from, to)
      if (page.error) failed('reading the overdue view', page.error)
      return page.data
    }, PAGE_ROWS),
  ])
  const list: SealedList = {
    // A row that arrived between two pages pushes one row of the first into the second: once.
    rows: [...new Map(rows.map((row) => [row.id, row])).values()],
    overdueIds: overdue.map((row) => row.id),
    fetchedAt: new Date().toISOString(),
  }
  await keepSealedList(list)
  return list
}

export async function openList(list: SealedList, identities: string[]): Promise<Inquiry[]> {
  const overdueIds = new Set(list.overdueIds)
  return sortInquiries(
    await Promise.all(list.rows.map((row) => openInquiry(row, identities, overdueIds))),
  )
}

export type LoadedList = { inquiries: Inquiry[]; offlineSince: string | null }

/**
 * The list, opened with the unlocked key: fresh from the server, or, when the server cannot be
 * reached, the last one fetched on this device (with when it was fetched). An account without
 * access gets no list at all, kept or not.
 */
export async function loadInquiries(identities: string[]): Promise<LoadedList> {
  try {
    return { inquiries: await openList(await fetchSealedList(), identities), offlineSince: null }
  } catch (failure) {
    if (failure instanceof InboxDataError && failure.kind === 'no-access') throw failure
    const kept = await lastSealedList()
    if (!kept) throw failure
    return { inquiries: await openList(kept, identities), offlineSince: kept.fetchedAt }
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
