/**
 * The part of the database the browser's supabase-js client sees, so `.insert(row)` is typed.
 * Hand-written (there is no `supabase gen types` here without Docker); a test on PostgreSQL reads
 * the real table's columns and grants, so this cannot drift from `supabase/migrations`.
 *
 * The browser inserts the sealed row only: `{ id, key_id, sealed }`, the exact columns anon may
 * insert. The plaintext columns stay (nullable) for rows stored before sealing.
 */
export type Database = {
  public: {
    Tables: {
      contact_submissions: {
        Row: {
          id: string
          created_at: string
          key_id: string | null
          sealed: string | null
          status: 'new' | 'responded' | 'engaged' | 'completed' | 'declined'
          responded_at: string | null
          completed_at: string | null
          overdue_alerted_at: string | null
          name: string | null
          contact: string | null
          project_type: string | null
          budget: string | null
          message: string | null
          user_agent: string | null
        }
        Insert: {
          /** Made in the browser (crypto.randomUUID), one per draft: a replay answers 409. */
          id: string
          /** Which recipient set sealed it (first 16 hex of SHA-256 over the sorted recipients). */
          key_id: string
          /** The ASCII-armored age file of the submission document. */
          sealed: string
        }
        Update: {
          status?: Database['public']['Tables']['contact_submissions']['Row']['status']
        }
        Relationships: []
      }
    }
    Views: {
      /** Signed-in staff with a second factor only (empty for anyone else). */
      inbox_overdue_submissions: {
        Row: { id: string; ref: string; created_at: string; waiting: string; key_id: string | null }
        Relationships: []
      }
      inbox_response_times: {
        Row: {
          responded: number
          p50: string | null
          p90: string | null
          within_24h: number | null
        }
        Relationships: []
      }
    }
    Functions: {
      /** Whether the signed-in caller may read the inbox (on the staff list, aal2). */
      inbox_access: { Args: Record<string, never>; Returns: boolean }
    }
    Enums: { [_ in never]: never }
    CompositeTypes: { [_ in never]: never }
  }
}

/** The row the browser sends (and the outbox stores, with its bookkeeping). */
export type SealedRow = Database['public']['Tables']['contact_submissions']['Insert']
