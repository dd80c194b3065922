import { openSealedSubmission, type OpenProblem } from '../../src/shared/submission/open-sealed'
import type { DocumentProblem, SealedDocument } from '../../src/shared/submission/sealed-document'
import { keySetId } from '../../src/shared/submission/sealed-row'
import type { Identities } from './identity-file'

/**
 * Opens a sealed submission for `npm run inbox` (src/shared/submission/open-sealed.ts does the
 * opening), and words what went wrong for someone at a terminal.
 */

export class OpenSealedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OpenSealedError'
  }
}

export async function openSealed(
  sealed: string,
  identities: Identities,
  row: { id: string; key_id: string },
  identitySource: string,
): Promise<{ document: SealedDocument; warnings: string[] }> {
  const opened = await openSealedSubmission(sealed, identities.secrets)
  if ('problem' in opened)
    throw new OpenSealedError(await problemMessage(opened, row, identities, identitySource))
  const { document } = opened
  const warnings: string[] = []
  // The id inside the ciphertext is bound by the encryption; the row's id is not. A mismatch means
  // the ciphertext was copied from another submission (a replay), not written for this row.
  if (document.id !== row.id) {
    warnings.push(
      `The sealed document names id ${document.id}, not this row's ${row.id}: it was copied from another submission.`,
    )
  }
  return { document, warnings }
}

const DOCUMENT_PROBLEMS: Record<DocumentProblem, string> = {
  'not-json': 'its content is not the JSON document the form seals',
  'unknown-version': 'its document has a version this command does not know; update this command',
  invalid: 'its document does not follow the sealed submission contract',
}

async function problemMessage(
  { problem, detail }: { problem: OpenProblem; detail?: string },
  row: { id: string; key_id: string },
  identities: Identities,
  source: string,
): Promise<string> {
  switch (problem) {
    case 'not-armor':
      return `Row ${row.id} holds no well-formed age armor in sealed.`
    case 'other-key':
      return wrongIdentityMessage(row, identities, source)
    case 'undecryptable':
      return `Row ${row.id} could not be decrypted (${detail ?? 'unknown error'}): the ciphertext is damaged.`
    default:
      return `Row ${row.id} decrypted, but ${DOCUMENT_PROBLEMS[problem]}.`
  }
}

async function wrongIdentityMessage(
  row: { id: string; key_id: string },
  identities: Identities,
  source: string,
): Promise<string> {
  const keyIds = await Promise.all(identities.recipients.map((recipient) => keySetId([recipient])))
  const tried = identities.recipients
    .map((recipient, index) => `${recipient} (key_id ${keyIds[index]} alone)`)
    .join(', ')
  return [
    `The identity in ${source} cannot open row ${row.id.slice(0, 8)}: it was sealed to key_id ${row.key_id}.`,
    `Tried: ${tried}.`,
    "Pass the identity of one of that set's recipients with --identity <file>. To see which recipients a key_id holds:",
    `  select recipients, label, status from private.submission_keys where key_id = '${row.key_id}';`,
  ].join('\n')
}
