/**
 * The site's calls to its Supabase project, each adding to the shared transport only what an answer
 * means for it: the inquiry's insert and its files' upload, the conversation's two functions, a
 * reply's file. The page loads it when something is sent (load-backend.ts); the service worker
 * imports it, so both send the same requests and read the answers alike. The mailbox token goes to
 * the conversation's calls only, in a body or a header, never an address.
 */
import { callRpc, insertRow } from '../shared/api/rest'
import {
  classify,
  DELIVERED,
  describeAnswer,
  type Answer,
  type Outcome,
  type TransportReason,
} from '../shared/api/outcome'
import {
  downloadObject,
  uploadFiles,
  uploadOutcome,
  type DownloadAnswer,
  type SealedUpload,
  type UploadOutcome,
  type UploadProgress,
} from '../shared/api/storage'
import { CONVERSATION_FILES_BUCKET, MAILBOX_TOKEN_HEADER } from '../shared/conversation/reply-files'
import type { SealedRow, ThreadView } from '../shared/database-types'
import { ATTACHMENTS_BUCKET } from '../shared/submission/attachments'
import { z } from '../shared/zod'
import { siteEnv } from './env'
import { supabase } from './supabase'

export type InquiryReason = TransportReason | 'staleKey' | 'fileRefused'
export type MessageReason = TransportReason | 'threadClosed' | 'threadNotFound' | 'receiptInvalid'

const PRIMARY_KEY = '"contact_submissions_pkey"'

export function classifyInsertAnswer(answer: Answer): Outcome<InquiryReason> {
  // PostgREST answers a stored insert (return=minimal) with 201 and nothing else.
  return classify(
    answer,
    ({ status }) => status === 201,
    ({ status, error }): Outcome<InquiryReason> | undefined => {
      const code = error?.code ?? ''
      const text = error?.message ?? ''
      // The id is made in the browser: a duplicate id means this very row was already stored.
      if (status === 409 && code === '23505' && text.includes(PRIMARY_KEY)) return DELIVERED
      // A key_id the database does not know or has retired: the page was built with an old key.
      if (
        status >= 400 &&
        status < 500 &&
        (code === '23503' || /key_id|submission_keys/.test(text))
      )
        return { kind: 'refused', reason: 'staleKey', detail: describeAnswer({ status, error }) }
    },
  )
}

/** Inserts the sealed row; `signal` stops it early (it then counts as no answer). */
export async function insertInquiry(
  row: SealedRow,
  signal?: AbortSignal,
): Promise<Outcome<InquiryReason>> {
  return classifyInsertAnswer(await insertRow(supabase, 'contact_submissions', row, signal))
}

/** Where tus-js-client keeps a started upload's URL: the object's name, no content. */
export const RESUME_KEY_PREFIX = 'contact-attachment:'

/**
 * Announces one file before its upload: the database counts its bytes from now on, so uploads
 * left unfinished count against the limits too. Its refusals read as an upload's.
 */
export const reserveAttachment = async (file: SealedUpload): Promise<UploadOutcome> =>
  uploadOutcome(
    await callRpc(supabase, 'reserve_attachment', {
      object_name: file.object,
      byte_count: file.ciphertext.size,
    }),
  )

/** The inquiry's sealed files, as anon into the private bucket, before its row. */
export const uploadAttachments = (
  files: readonly SealedUpload[],
  onProgress?: UploadProgress,
): Promise<UploadOutcome> =>
  uploadFiles(
    files,
    {
      storage: supabase.storage,
      url: siteEnv.supabaseUrl,
      apikey: siteEnv.supabaseAnonKey,
      bearer: siteEnv.supabaseAnonKey,
      bucket: ATTACHMENTS_BUCKET,
      resumeKeyPrefix: RESUME_KEY_PREFIX,
      reserve: reserveAttachment,
    },
    onProgress,
  )

/** A message added to a conversation, as `add_to_thread` takes it. */
export type ThreadMessageToAdd = { id: string; mailbox_token: string; sealed: string }

export function classifyAddAnswer(answer: Answer & { data: unknown }): Outcome<MessageReason> {
  const { data } = answer
  return classify(
    answer,
    ({ status }) => status === 200 && typeof data === 'object' && data !== null && 'id' in data,
    ({ status, error }): Outcome<MessageReason> | undefined => {
      const code = error?.code ?? ''
      const refused = (reason: MessageReason) => ({
        kind: 'refused' as const,
        reason,
        detail: describeAnswer(answer),
      })
      // Already stored under its id: a replay.
      if (status === 409 && code === '23505') return DELIVERED
      if (status === 409 && code === 'thread_closed') return refused('threadClosed')
      if (status === 404 && code === 'thread_not_found') return refused('threadNotFound')
      if (code === 'mailbox_token_invalid') return refused('receiptInvalid')
    },
  )
}

export async function addToThread(
  message: ThreadMessageToAdd,
  signal?: AbortSignal,
): Promise<Outcome<MessageReason>> {
  const answer = await callRpc(
    supabase,
    'add_to_thread',
    { mailbox_token: message.mailbox_token, message_id: message.id, sealed: message.sealed },
    signal,
  )
  return classifyAddAnswer(answer)
}

/** What opening a conversation came to. */
export type ReadOutcome =
  | { kind: 'thread'; thread: ThreadView }
  /** No inquiry has this mailbox (a wrong receipt, or one deleted). Counted as a guess. */
  | { kind: 'no-match' }
  /** 429: too many guesses from this network, or too many reads of this mailbox. */
  | { kind: 'limited'; scope: 'network' | 'mailbox'; retryAt: number }
  /** Offline, a gateway, a timeout, an answer that is not the function's. */
  | { kind: 'no-answer'; detail: string }
  /** The database cancelled the call (a statement timeout) or asked to slow down: try again. */
  | { kind: 'busy'; detail: string }
  /** Any other refusal or server error. */
  | { kind: 'failed'; detail: string }

/**
 * How long a limit lasts at most, by its code (the conversation's migration, private.thread_limits:
 * 10 guesses per 10 minutes per network, 60 reads and 10 messages an hour per mailbox).
 * supabase-js does not hand over Retry-After, so the page names a time by which it has passed.
 */
export const LIMIT_WINDOW_MS = {
  thread_network_limit: 10 * 60_000,
  thread_read_limit: 60 * 60_000,
  thread_write_limit: 60 * 60_000,
} as const

const threadViewSchema = z.object({
  reference: z.string(),
  status: z.enum(['received', 'answered', 'closed']),
  delete_by: z.string().nullable(),
  messages: z
    .array(
      z.object({
        id: z.uuid(),
        direction: z.enum(['visitor', 'agency']),
        sealed: z.string(),
        created_at: z.string(),
      }),
    )
    .min(1),
})

export function classifyReadAnswer(answer: Answer & { data: unknown }, now: number): ReadOutcome {
  const { error, status, data } = answer
  if (!error && status === 200) {
    if (data === null) return { kind: 'no-match' }
    const thread = threadViewSchema.safeParse(data)
    if (thread.success) return { kind: 'thread', thread: thread.data }
  }
  if (error && status === 429) {
    const code = error.code === 'thread_read_limit' ? 'thread_read_limit' : 'thread_network_limit'
    return {
      kind: 'limited',
      scope: code === 'thread_read_limit' ? 'mailbox' : 'network',
      retryAt: now + LIMIT_WINDOW_MS[code],
    }
  }
  const outcome = classify(answer, () => false)
  if (outcome.kind === 'no-answer' && outcome.reason === 'busy') {
    return { kind: 'busy', detail: outcome.detail }
  }
  if (outcome.kind === 'no-answer') {
    return {
      kind: 'no-answer',
      detail: error ? outcome.detail : `HTTP ${status} without the function's answer`,
    }
  }
  return { kind: 'failed', detail: outcome.kind === 'delivered' ? '' : outcome.detail }
}

/** Opens the conversation a mailbox token names. */
export async function readThread(mailboxToken: string): Promise<ReadOutcome> {
  const answer = await callRpc(supabase, 'read_thread', { mailbox_token: mailboxToken })
  return classifyReadAnswer(answer, Date.now())
}

/** A reply's file, as anon with the mailbox token in the header the bucket's policy reads. */
export const downloadReplyFile = (object: string, mailboxToken: string): Promise<DownloadAnswer> =>
  downloadObject(supabase, CONVERSATION_FILES_BUCKET, object, {
    [MAILBOX_TOKEN_HEADER]: mailboxToken,
  })
