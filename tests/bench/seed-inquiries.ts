import { randomUUID } from 'node:crypto'
import { sealSubmission } from '../../src/features/contact/sealing/seal-submission'
import { buildDocument } from '../../src/shared/submission/sealed-document'
import { NIGHT_OWL } from '../../src/shared/submission/submission-test-fixtures'
import { ensureDevIdentity } from '../../supabase/local/dev-identity'

const STATUSES = ['new', 'responded', 'engaged', 'completed', 'declined'] as const

/**
 * `rows` inquiries spread evenly over `days` (about 20 a day is a busy agency), sealed to the
 * backend's development identity as the public form seals them, written straight into its table:
 * the newest tenth new (some of them overdue), the rest handled (responded, engaged, completed,
 * declined in turn). Returns their ids, the newest first.
 */
export async function seedInquiries(
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  backendDir: string,
  { rows, days }: { rows: number; days: number },
): Promise<string[]> {
  const { recipient } = await ensureDevIdentity(backendDir)
  const ids: string[] = []
  for (let index = 0; index < rows; index += 1) {
    const id = randomUUID()
    const hoursAgo = (index * days * 24) / rows
    const document = buildDocument(
      {
        name: `Bench inquiry ${index}`,
        contact: `bench${index}@example.com`,
        project_type: 'community-building',
        budget: '25k-50k',
        message: `Brief ${index}: ${'A launch plan with a community and a budget. '.repeat(20)}`,
      },
      {
        id,
        now: Date.now() - hoursAgo * 3_600_000,
        userAgent: 'bench',
        replyTo: recipient,
        signingKey: NIGHT_OWL.signing_key,
      },
    )
    const row = await sealSubmission(document, [recipient])
    const status = index < rows / 10 ? 'new' : STATUSES[1 + (index % 4)]!
    await query(
      `insert into public.contact_submissions (id, key_id, sealed, mailbox_hash, created_at)
       values ($1, $2, $3, sha256(($1::uuid)::text::bytea), now() - make_interval(mins => $4))`,
      [row.id, row.key_id, row.sealed, Math.round(hoursAgo * 60)],
    )
    if (status !== 'new') {
      await query(`update public.contact_submissions set status = $2 where id = $1`, [
        row.id,
        status,
      ])
    }
    ids.push(row.id)
  }
  return ids
}
