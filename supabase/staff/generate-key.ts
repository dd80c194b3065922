import { generateX25519Identity, identityToRecipient } from 'age-encryption'
import { formatIdentityFile, writeNewIdentityFile } from './identity-file'
import { keyFingerprint, keySetId } from '../../src/shared/submission/sealed-row'
import { agencySigningSeed, signingKeyOf } from '../../src/shared/crypto/signing'

export type GeneratedKey = {
  path: string
  recipient: string
  keyId: string
  /** The public half of the signing key derived from the identity (src/shared/crypto/signing.ts). */
  signingKey: string
  /** The key set id the published fingerprint shows: the recipient and the signing key. */
  fingerprintId: string
}

/**
 * Creates the agency's staff identity: an X25519 age key (what `age-keygen` makes and the browser
 * seals to), written to a new file only its owner can read, or, for path "-", to `pipe` (standard
 * output, for `| age -p > key.age`, so the secret never lies on disk unencrypted).
 */
export async function generateKey(
  path: string,
  now: Date = new Date(),
  pipe: (text: string) => void = (text) => process.stdout.write(text),
): Promise<GeneratedKey> {
  const identity = await generateX25519Identity()
  const recipient = await identityToRecipient(identity)
  const contents = formatIdentityFile(identity, recipient, now)
  if (path === '-') pipe(contents)
  else await writeNewIdentityFile(path, contents)
  const signingKey = signingKeyOf(agencySigningSeed(identity)!)
  return {
    path,
    recipient,
    keyId: await keySetId([recipient]),
    signingKey,
    fingerprintId: await keySetId([recipient, signingKey]),
  }
}

/** What to do next, with the values filled in, so nobody retypes a key by hand. */
export function nextSteps(
  { path, recipient, keyId, signingKey, fingerprintId }: GeneratedKey,
  label: string,
): string {
  const quotedLabel = label.replace(/'/g, "''")
  const piped = path === '-'
  return [
    piped
      ? 'Wrote a new age identity to standard output.'
      : `Wrote a new age identity to ${path} (readable by you only).`,
    '',
    `  public recipient:  ${recipient}`,
    `  signing key:       ${signingKey}   (derived from the identity: replies are signed with it)`,
    `  key_id:            ${keyId}   (this recipient alone)`,
    `  fingerprint:       ${keyFingerprint(fingerprintId)}   (recipient and signing key: publish it where visitors can compare it)`,
    '',
    'Next steps:',
    `  1. Keep ${piped ? 'the identity' : path} offline: a copy in the agency's safe, not in the repository, a chat or a cloud`,
    piped
      ? '     drive. Decrypt it only into a pipe (age -d key.age | …), never back to a file.'
      : '     drive. To keep it encrypted at rest: age -p -o key.txt.age key.txt, then shred -u key.txt.',
    '     Losing every copy means losing every row sealed to it: nobody can decrypt them.',
    '  2. Register the recipient set, in the Supabase SQL editor (or psql as postgres):',
    `       select private.register_submission_key(array['${recipient}'], '${quotedLabel}');`,
    `     It returns ${keyId}. During a rotation register both recipients in one set instead:`,
    "       select private.register_submission_key(array['<old age1…>', '<new age1…>'], 'rotation');",
    `     Publish the fingerprint (${keyFingerprint(fingerprintId)} for this key alone) away from the web host:`,
    '     the pinned post of the agency’s Telegram channel and a DNS TXT record (supabase/README.md, step 2).',
    '  3. Build the site with the same recipients and their signing keys:',
    `       VITE_SUBMISSION_RECIPIENTS=${recipient}`,
    `       VITE_AGENCY_SIGNING_KEYS=${signingKey}`,
    '     (comma-separated, in the same set as step 2, e.g. old,new during a rotation).',
    piped
      ? '  4. Read submissions: age -d key.age | npm run inbox -- show <ref> --identity -'
      : `  4. Read submissions: npm run inbox -- show <ref> --identity ${path}`,
  ].join('\n')
}
