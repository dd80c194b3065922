import {
  assertRecipientsFor,
  parseSubmissionRecipients,
  submissionKeysFor,
  type SubmissionKeys,
} from '../lib/env.ts'
import { ensureDevIdentity } from '../../supabase/local/dev-identity.ts'

/**
 * Who the agency's sealed content goes to: VITE_SUBMISSION_RECIPIENTS, or, when it is unset and
 * the Supabase URL is local, the local backend's development identity (created on first use, under
 * LOCAL_BACKEND_DIR or .local-backend/), so `npm start` needs no setup. A hosted URL with no
 * recipients stops the build. Unit tests (mode "test") get only what is set: no key is created.
 * The key_id is derived here, once, by the contract's own function.
 *
 * Both builds call it: the site seals inquiries to these recipients, and the staff inbox seals its
 * replies to them (with the visitor's), so the two always agree and neither reads them from the
 * database, which could swap them.
 */
export async function resolveSubmissionKeys(
  env: Record<string, string>,
  supabaseUrl: string,
  mode: string,
): Promise<SubmissionKeys | null> {
  let recipients = parseSubmissionRecipients(env)
  if (mode !== 'test') {
    assertRecipientsFor(supabaseUrl, recipients)
    if (recipients.length === 0) recipients = [(await ensureDevIdentity()).recipient]
  }
  return submissionKeysFor(recipients)
}
