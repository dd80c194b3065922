/**
 * The part of the database the browser's supabase-js client sees, so `.insert(row)` is typed.
 * Hand-written (there is no `supabase gen types` here without Docker); a test on PostgreSQL reads
 * the real table's columns and grants, so this cannot drift from `supabase/migrations`.
 *
 * The browser inserts the sealed row only: `{ id, key_id, sealed, mailbox_hash }`, the exact
 * columns anon may insert; the table has no plaintext column. The conversation after the inquiry
 * is `contact_messages` (staff at aal2) and, for the visitor, the functions `read_thread` and
 * `add_to_thread` (supabase/migrations/…_conversation.sql).
 */

/** One message of a thread as `read_thread` returns it (the first one is the inquiry itself). */
export type ThreadMessageRow = {
  id: string
  direction: 'visitor' | 'agency'
  /** The ASCII-armored age file of the thread message document (or of the inquiry). */
  sealed: string
  created_at: string
}

/** What `read_thread` answers for a mailbox that has an inquiry (null otherwise). */
export type ThreadView = {
  /** The inquiry's reference: the first 8 characters of its id. */
  reference: string
  status: 'received' | 'answered' | 'closed'
  /** For a closed thread, the latest time the purge deletes it; null otherwise. */
  delete_by: string | null
  /** Oldest first; the inquiry itself first. */
  messages: ThreadMessageRow[]
}
export type Database = {
  public: {
    Tables: {
      contact_submissions: {
        Row: {
          id: string
          created_at: string
          key_id: string
          sealed: string
          status: 'new' | 'responded' | 'engaged' | 'completed' | 'declined'
          responded_at: string | null
          completed_at: string | null
          overdue_alerted_at: string | null
          /** `'\\x' + hex` (bytea over REST): SHA-256 of the mailbox token. */
          mailbox_hash: string
          /** The staff account's email that last answered (stamped by the database). */
          responded_by: string | null
          /** A visitor's message nobody has answered yet arrived then (the inbox lists these first). */
          awaiting_reply_since: string | null
        }
        Insert: {
          /** Made in the browser (crypto.randomUUID), one per draft: a replay answers 409. */
          id: string
          /** Which recipient set sealed it (first 16 hex of SHA-256 over the sorted recipients). */
          key_id: string
          /** The ASCII-armored age file of the submission document. */
          sealed: string
          /**
           * `'\\x' + hex` (a backslash, x, 64 lowercase hex characters: how PostgREST takes bytea):
           * SHA-256 of the mailbox token the receipt derives. The database requires it; optional
           * here because the row is sealed first and gets its mailbox from the receipt after.
           */
          mailbox_hash?: string
        }
        Update: {
          status?: Database['public']['Tables']['contact_submissions']['Row']['status']
        }
        Relationships: []
      }
      contact_messages: {
        Row: {
          id: string
          submission_id: string
          direction: ThreadMessageRow['direction']
          sealed: string
          /** The staff account for agency messages; null for the visitor's. */
          author_email: string | null
          created_at: string
        }
        /** Staff at aal2 only; the database stamps direction, author_email and created_at. */
        Insert: {
          /** Made once by the sender and kept across retries: a replay answers 409. */
          id: string
          submission_id: string
          sealed: string
        }
        /** Nobody signed in updates a message. */
        Update: { [_ in never]: never }
        Relationships: [
          {
            foreignKeyName: 'contact_messages_submission_id_fkey'
            columns: ['submission_id']
            isOneToOne: false
            referencedRelation: 'contact_submissions'
            referencedColumns: ['id']
          },
        ]
      }
    }
    Views: {
      /** Signed-in staff with a second factor only (empty for anyone else). */
      inbox_overdue_submissions: {
        Row: { id: string; ref: string; created_at: string; waiting: string; key_id: string }
        Relationships: []
      }
      inbox_response_times: {
        Row: {
          responded: number
          p50: string | null
          p90: string | null
          within_24h: number | null
          closed_unanswered: number
        }
        Relationships: []
      }
    }
    Functions: {
      /** Whether the signed-in caller may read the inbox (on the staff list, aal2). */
      inbox_access: { Args: Record<string, never>; Returns: boolean }
      /** anon: the thread of the mailbox token (64 lowercase hex), null if none; 429 when limited. */
      read_thread: { Args: { mailbox_token: string }; Returns: ThreadView | null }
      /**
       * anon: adds a sealed visitor message. 404 thread_not_found, 409 thread_closed, 409 23505 for
       * a replayed message_id (delivered), 400 bad token or armor, 429 when limited.
       */
      add_to_thread: {
        Args: { mailbox_token: string; message_id: string; sealed: string }
        Returns: { id: string; created_at: string }
      }
      /**
       * anon: announces one of the form's uploads (`<submission>/<object>`, its sealed bytes)
       * before it starts, counted against the byte limits; 403 past a per-file limit, 429 over a cap.
       */
      reserve_attachment: { Args: { object_name: string; byte_count: number }; Returns: undefined }
      /** Staff at aal2, the new device: a link for its one-time recipient; answers the row's id. */
      device_link_open: { Args: { recipient: string; fingerprint: string }; Returns: string }
      /** Staff at aal2, the unlocked device: the recipient the linking code names, or null. */
      device_link_recipient: { Args: { fingerprint: string }; Returns: string | null }
      /** Staff at aal2: the key set sealed to it; false when no link waits for that code. */
      device_link_seal: {
        Args: { fingerprint: string; recipient: string; sealed: string }
        Returns: boolean
      }
      /** The account that opened the link: the sealed key set once (the row goes with it). */
      device_link_take: { Args: { link_id: string }; Returns: DeviceLinkTaken }
      /** The new device gives up: the row goes now. */
      device_link_cancel: { Args: { link_id: string }; Returns: boolean }
    }
    Enums: { [_ in never]: never }
    CompositeTypes: { [_ in never]: never }
  }
}

/** What the new device reads while it waits for the unlocked one. */
export type DeviceLinkTaken =
  { state: 'sealed'; sealed: string } | { state: 'waiting' } | { state: 'gone' }

/** The row the browser sends (and the outbox stores, with its bookkeeping). */
export type SealedRow = Database['public']['Tables']['contact_submissions']['Insert']

/** A staff reply as the inbox inserts it. */
export type SealedReply = Database['public']['Tables']['contact_messages']['Insert']
