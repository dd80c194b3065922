/** Test data for the sealed submission's contract, shared by the unit and migration tests. */
import { Encrypter, armor } from 'age-encryption'
import type { SubmissionDocument } from './sealed-document'

/** The form's five fields filled in, as a visitor would (before parsing). */
export const FILLED_FIELDS = {
  name: 'Ada',
  contact: '@ada_l',
  project_type: 'crypto/web3-launch',
  budget: '10k-25k',
  message: 'Token launch in Q3.',
}

/** A submission document with every field set, as the sealer receives it. */
export const NIGHT_OWL: SubmissionDocument = {
  id: '0b9d7c1e-4f3a-4c2b-9a1d-6e5f4a3b2c1d',
  name: 'Night Owl',
  contact: '@night_owl',
  project_type: 'crypto/web3-launch',
  budget: '25k-50k',
  message: 'Token launch in Q3, need a quiet campaign.',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chromium',
  submitted_at: '2026-11-22T16:20:00.000Z',
  // The recipient of the fixed test receipt in src/shared/conversation/receipt.test.ts.
  reply_to: 'age1y7ckg3l8hddupdhwqlpg2sedhyzwg8d349danrdk4jt67jvhkctsqx7unx',
  // The fixed test receipt's signing key (the same test).
  signing_key: '17d79224abdfa18e6cf18a1a5d5e5e0f8307b22e4630de44f3cd7345b2c20fcb',
}

/**
 * Armors sealed to `recipient` and damaged in the ways that matter, each with the verdict of the
 * contract's armor check: isAgeArmor's test and the database's (supabase/migrations.test.ts) use
 * the same samples, so the two checks cannot drift apart.
 */
export async function armorSamples(
  recipient: string,
): Promise<Record<string, { armor: string; valid: boolean }>> {
  const encrypter = new Encrypter()
  encrypter.addRecipient(recipient)
  const real = armor.encode(await encrypter.encrypt('a sealed document'))
  const body = real.split('\n').slice(1, -2).join('')
  const lines = (base64: string) => base64.match(/.{1,64}/g)?.join('\n') ?? ''
  const wrap = (base64: string) =>
    `-----BEGIN AGE ENCRYPTED FILE-----\n${lines(base64)}\n-----END AGE ENCRYPTED FILE-----\n`
  const large = new Encrypter()
  large.addRecipient(recipient)
  const tooLong = armor.encode(await large.encrypt(new Uint8Array(40_000)))
  return {
    'an armor age wrote': { armor: real, valid: true },
    'the same without its final newline': { armor: real.slice(0, -1), valid: true },
    'Windows line ends': { armor: real.replace(/\n/g, '\r\n'), valid: false },
    'lines of 76 columns': {
      armor: real.replace(lines(body), body.match(/.{1,76}/g)?.join('\n') ?? ''),
      valid: false,
    },
    'random base64': { armor: wrap(btoa('x'.repeat(300))), valid: false },
    'base64 with a stray "=" inside': {
      armor: wrap(`${body.slice(0, 8)}=${body.slice(9)}`),
      valid: false,
    },
    'another PEM block': {
      armor: real.replace(/AGE ENCRYPTED FILE/g, 'PGP MESSAGE'),
      valid: false,
    },
    'an age header without a recipient stanza': {
      armor: wrap(btoa('age-encryption.org/v1\n--- abc\n')),
      valid: false,
    },
    'plain text': { armor: 'Hello, this is my brief.', valid: false },
    'over 51,200 characters': { armor: tooLong, valid: false },
  }
}
