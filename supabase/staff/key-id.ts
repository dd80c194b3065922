import { createHash } from 'node:crypto'

/**
 * The id of a recipient set, as the browser computes it when it seals and as
 * `private.register_submission_key` stores it (CONTRACTS.md): the first 16 lowercase hex characters
 * of SHA-256 over the sorted, de-duplicated recipients joined by "\n".
 */
export function recipientSetId(recipients: readonly string[]): string {
  const canonical = [...new Set(recipients.map((recipient) => recipient.trim()))].sort().join('\n')
  return createHash('sha256').update(canonical, 'utf8').digest('hex').slice(0, 16)
}
