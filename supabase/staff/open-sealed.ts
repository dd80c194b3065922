import { armor, Decrypter } from 'age-encryption'
import {
  DocumentError,
  parseSealedDocument,
  type SealedDocument,
} from '../../src/shared/submission/sealed-document'
import { keySetId } from '../../src/shared/submission/sealed-row'
import type { Identities } from './identity-file'

/**
 * Opens a sealed submission: the armored age file the browser stored in `sealed`, holding the
 * document of the sealed submission's contract (src/shared/submission/README.md).
 */

export class OpenSealedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OpenSealedError'
  }
}

const NO_MATCH = "no identity matched any of the file's recipients"

export async function openSealed(
  sealed: string,
  identities: Identities,
  row: { id: string; key_id: string | null },
  identitySource: string,
): Promise<{ document: SealedDocument; warnings: string[] }> {
  let binary: Uint8Array
  try {
    binary = armor.decode(sealed)
  } catch {
    throw new OpenSealedError(`Row ${row.id} holds no well-formed age armor in sealed.`)
  }
  const decrypter = new Decrypter()
  for (const secret of identities.secrets) decrypter.addIdentity(secret)
  let text: string
  try {
    text = await decrypter.decrypt(binary, 'text')
  } catch (error) {
    if (error instanceof Error && error.message === NO_MATCH) {
      throw new OpenSealedError(await wrongIdentityMessage(row, identities, identitySource))
    }
    throw new OpenSealedError(
      `Row ${row.id} could not be decrypted (${error instanceof Error ? error.message : 'unknown error'}): the ciphertext is damaged.`,
    )
  }
  return parseDocument(text, row.id)
}

async function wrongIdentityMessage(
  row: { id: string; key_id: string | null },
  identities: Identities,
  source: string,
): Promise<string> {
  const keyIds = await Promise.all(identities.recipients.map((recipient) => keySetId([recipient])))
  const tried = identities.recipients
    .map((recipient, index) => `${recipient} (key_id ${keyIds[index]} alone)`)
    .join(', ')
  return [
    `The identity in ${source} cannot open row ${row.id.slice(0, 8)}: it was sealed to key_id ${row.key_id ?? '(none recorded)'}.`,
    `Tried: ${tried}.`,
    "Pass the identity of one of that set's recipients with --identity <file>. To see which recipients a key_id holds:",
    `  select recipients, label, status from private.submission_keys where key_id = '${row.key_id ?? ''}';`,
  ].join('\n')
}

const DOCUMENT_PROBLEMS: Record<DocumentError['problem'], string> = {
  'not-json': 'its content is not the JSON document the form seals',
  'unknown-version': 'its document has a version this command does not know; update this command',
  invalid: 'its document does not follow the sealed submission contract',
}

function parseDocument(
  text: string,
  rowId: string,
): { document: SealedDocument; warnings: string[] } {
  let document: SealedDocument
  try {
    document = parseSealedDocument(text)
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error
    throw new OpenSealedError(`Row ${rowId} decrypted, but ${DOCUMENT_PROBLEMS[error.problem]}.`)
  }
  const warnings: string[] = []
  // The id inside the ciphertext is bound by the encryption; the row's id is not. A mismatch means
  // the ciphertext was copied from another submission (a replay), not written for this row.
  if (document.id !== rowId) {
    warnings.push(
      `The sealed document names id ${document.id}, not this row's ${rowId}: it was copied from another submission.`,
    )
  }
  return { document, warnings }
}
