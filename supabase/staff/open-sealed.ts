import { armor, Decrypter } from 'age-encryption'
import type { Identities } from './identity-file'
import { recipientSetId } from './key-id'

/**
 * Opens a sealed submission: the armored age file the browser stored in `sealed`, holding the
 * JSON document of CONTRACTS.md ("Sealed submission").
 */

export type SealedDocument = {
  v: 1
  id: string
  name: string
  contact: string
  project_type: string | null
  budget: string | null
  message: string
  user_agent: string
  submitted_at: string
}

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
      throw new OpenSealedError(wrongIdentityMessage(row, identities, identitySource))
    }
    throw new OpenSealedError(
      `Row ${row.id} could not be decrypted (${error instanceof Error ? error.message : 'unknown error'}): the ciphertext is damaged.`,
    )
  }
  return parseDocument(text, row.id)
}

function wrongIdentityMessage(
  row: { id: string; key_id: string | null },
  identities: Identities,
  source: string,
): string {
  const tried = identities.recipients
    .map((recipient) => `${recipient} (key_id ${recipientSetId([recipient])} alone)`)
    .join(', ')
  return [
    `The identity in ${source} cannot open row ${row.id.slice(0, 8)}: it was sealed to key_id ${row.key_id ?? '(none recorded)'}.`,
    `Tried: ${tried}.`,
    "Pass the identity of one of that set's recipients with --identity <file>. To see which recipients a key_id holds:",
    `  select recipients, label, status from private.submission_keys where key_id = '${row.key_id ?? ''}';`,
  ].join('\n')
}

function parseDocument(
  text: string,
  rowId: string,
): { document: SealedDocument; warnings: string[] } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new OpenSealedError(
      `Row ${rowId} decrypted, but its content is not the JSON document the form seals.`,
    )
  }
  if (typeof value !== 'object' || value === null || (value as { v?: unknown }).v !== 1) {
    throw new OpenSealedError(
      `Row ${rowId} decrypted, but its document has an unknown version; update this command.`,
    )
  }
  const document = value as SealedDocument
  const warnings: string[] = []
  // The id inside the ciphertext is bound by the encryption; the row's id is not. A mismatch means
  // the ciphertext was copied from another submission (a replay), not written for this row.
  if (document.id !== rowId) {
    warnings.push(
      `The sealed document names id ${String(document.id)}, not this row's ${rowId}: it was copied from another submission.`,
    )
  }
  return { document, warnings }
}
