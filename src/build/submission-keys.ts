import {
  assertRecipientsFor,
  parseSigningKeys,
  parseSubmissionRecipients,
  submissionKeysFor,
  type SubmissionKeys,
} from '../lib/env.ts'
import { ensureDevIdentity } from '../../supabase/local/dev-identity.ts'

/**
 * Who the agency's sealed content goes to and whose signature its replies carry:
 * VITE_SUBMISSION_RECIPIENTS and VITE_AGENCY_SIGNING_KEYS, or, when they are unset and
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
  let signingKeys = parseSigningKeys(env)
  if (mode !== 'test') {
    assertRecipientsFor(supabaseUrl, recipients, signingKeys)
    if (recipients.length === 0) {
      const dev = await ensureDevIdentity()
      recipients = [dev.recipient]
      signingKeys = [dev.signingKey]
    }
  }
  return submissionKeysFor(recipients, signingKeys)
}
