/**
 * The REST half of the transport: one insert and one RPC, through a supabase-js client (the site's
 * anon one, a staff session's, the service worker's), each bounded by SEND_TIMEOUT_MS. They answer
 * with what outcome.ts reads; they never throw.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '../database-types'
import { deadline, SEND_TIMEOUT_MS } from './abort'
import type { Answer } from './outcome'

type Client = SupabaseClient<Database>
type Tables = Database['public']['Tables']
type Functions = Database['public']['Functions']

/** Nothing came back at all (offline, reset, CORS, the deadline). */
const noAnswer = (error: unknown) => ({ status: 0, error: { message: String(error) }, data: null })

/** A plain insert (return=minimal), so the inserting role needs no SELECT right. */
export async function insertRow<Table extends keyof Tables>(
  client: Client,
  table: Table,
  row: Tables[Table]['Insert'],
  signal?: AbortSignal,
): Promise<Answer> {
  try {
    const { error, status } = await client
      .from(table)
      .insert(row as never)
      .abortSignal(deadline(SEND_TIMEOUT_MS, signal))
    return { status, error }
  } catch (error) {
    return noAnswer(error)
  }
}

export async function callRpc<Name extends keyof Functions>(
  client: Client,
  name: Name,
  args: Functions[Name]['Args'],
  signal?: AbortSignal,
): Promise<Answer & { data: unknown }> {
  try {
    const { error, status, data } = await client
      .rpc(name, args as never)
      .abortSignal(deadline(SEND_TIMEOUT_MS, signal))
    return { status, error, data: data as unknown }
  } catch (error) {
    return noAnswer(error)
  }
}
