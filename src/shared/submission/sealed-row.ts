/**
 * The sealed row: what the browser inserts into contact_submissions and the outbox stores,
 * `{ id, key_id, sealed }`, and the two rules the database also enforces on it (the armor check,
 * the key set's id). Pure: no age, no Node, so the outbox, the build and the staff tools share it.
 * Each rule has a twin in SQL (supabase/migrations, `private.is_age_armor` and
 * `private.submission_key_id`); supabase/migrations.test.ts holds the twins to the same answers.
 */

/**
 * The largest `sealed` the database stores, in characters (the armor is ASCII, so also bytes):
 * the largest document the fields allow, sealed to the most recipients a key set may have (10),
 * armored, with a little room (the migration's comment shows the arithmetic).
 */
export const SEALED_MAX_CHARS = 51_200

/** A key set's id: 16 lowercase hex characters. */
export const KEY_ID_PATTERN = /^[0-9a-f]{16}$/

const ARMOR =
  /^-----BEGIN AGE ENCRYPTED FILE-----\n((?:[A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64})\n-----END AGE ENCRYPTED FILE-----\n?$/
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const AGE_HEADER = 'age-encryption.org/v1\n-> '
const HEADER_MAC = '\n--- '

/**
 * A well-formed age ASCII armor of at most SEALED_MAX_CHARS characters: the BEGIN line, canonical
 * base64 in lines of 64, the END line; decoded, the age header line, a recipient stanza, and the
 * header's MAC line. Random base64 or another PEM block fails. Same answer as the database's
 * `private.is_age_armor`.
 */
export function isAgeArmor(text: unknown): text is string {
  if (typeof text !== 'string' || text.length > SEALED_MAX_CHARS) return false
  const body = ARMOR.exec(text)?.[1]?.replace(/\n/g, '')
  if (body === undefined || !CANONICAL_BASE64.test(body)) return false
  const binary = atob(body)
  return binary.startsWith(AGE_HEADER) && binary.includes(HEADER_MAC)
}

/**
 * The key set's fingerprint as people compare it: its key_id in four groups of four
 * ("3f2a 9c1e 77b0 d412"). The form shows it, `npm run keygen` prints it, the database's
 * `private.register_submission_key` returns the same 16 characters, and the agency publishes it
 * away from the web host (a pinned Telegram post, a DNS TXT record), so a visitor can check the page
 * against something the host does not control.
 */
export const keyFingerprint = (keyId: string) => keyId.match(/.{1,4}/g)?.join(' ') ?? keyId

/**
 * The id of a recipient set (the row's `key_id`): the first 16 lowercase hex characters of SHA-256
 * over the set's distinct recipients, sorted, joined by "\n". Staff register a set under it
 * (`private.register_submission_key`) and the database refuses rows sealed to a set it does not
 * know. Checking that each recipient is a valid age key is the caller's job.
 */
export async function keySetId(recipients: readonly string[]): Promise<string> {
  const canonical = [...new Set(recipients)].sort().join('\n')
  const digest = await globalThis.crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(canonical),
  )
  return [...new Uint8Array(digest)]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 16)
}
