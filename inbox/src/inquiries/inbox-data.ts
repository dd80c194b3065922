import { supabase } from '../supabase-client'
import type { Inquiry, InquiryRow } from './inquiry'
import { openInquiry, sortInquiries } from './inquiries'

/** The inbox's reads and its one write, through the database's rules for signed-in staff. */

const COLUMNS = 'id, key_id, sealed, status, created_at, responded_at, completed_at'

export type ResponseTimes = { p50: string | null; p90: string | null; within_24h: number | null }

export class InboxDataError extends Error {
  constructor(readonly kind: 'no-access' | 'failed') {
    super(kind)
    this.name = 'InboxDataError'
  }
}

function failed(what: string, error: unknown): never {
  // The server's words go to the console only; the page says a sentence.
  console.error(`inbox: ${what} failed`, error)
  throw new InboxDataError('failed')
}

export async function loadInquiries(identities: string[]): Promise<Inquiry[]> {
  const access = await supabase.rpc('inbox_access')
  if (access.error) failed('the access check', access.error)
  if (access.data !== true) throw new InboxDataError('no-access')
  const [rows, overdue] = await Promise.all([
    supabase.from('contact_submissions').select(COLUMNS).order('created_at', { ascending: false }),
    supabase.from('inbox_overdue_submissions').select('id'),
  ])
  if (rows.error) failed('reading inquiries', rows.error)
  if (overdue.error) failed('reading the overdue view', overdue.error)
  const overdueIds = new Set(overdue.data.map((row) => row.id))
  const opened = await Promise.all(
    (rows.data as InquiryRow[]).map((row) => openInquiry(row, identities, overdueIds)),
  )
  return sortInquiries(opened)
}

export async function loadResponseTimes(): Promise<ResponseTimes | null> {
  const { data, error } = await supabase.from('inbox_response_times').select('p50, p90, within_24h')
  if (error) failed('reading response times', error)
  return (data[0] as ResponseTimes | undefined) ?? null
}

export type SettableStatus = 'responded' | 'engaged' | 'completed' | 'declined'

export async function setStatus(id: string, status: SettableStatus) {
  const { data, error } = await supabase
    .from('contact_submissions')
    .update({ status })
    .eq('id', id)
    .select('status, responded_at, completed_at')
    .single()
  if (error) failed('changing the status', error)
  return data
}
