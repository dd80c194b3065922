import { armor, Decrypter } from 'age-encryption'
import {
  DocumentError,
  parseSealedDocument,
  type DocumentProblem,
  type SealedDocument,
} from './sealed-document'

/**
 * Opening a stored row's `sealed` with the identities a reader holds: the one way the staff
 * inbox in the browser and `npm run inbox` read a submission (`decryptSealed` alone opens a
 * thread's messages, whose document is src/shared/conversation/thread-message.ts). Each reader
 * words the problems its own way; this says which one it is.
 */

/** `other-key`: sealed to recipients none of the identities belongs to (another key set). */
export type OpenProblem = 'not-armor' | 'other-key' | 'undecryptable' | DocumentProblem

export type OpenedSubmission =
  | { document: SealedDocument }
  | {
      problem: OpenProblem
      /** typage's words when decryption failed: for a developer's console, never for a page. */
      detail?: string
    }

// typage's message when no identity is a recipient of the file.
const NO_MATCH = "no identity matched any of the file's recipients"

/** The age file in `sealed`, decrypted to text with any of `secrets`, or why it could not be. */
export async function decryptSealed(
  sealed: string,
  secrets: readonly string[],
): Promise<
  { text: string } | { problem: 'not-armor' | 'other-key' | 'undecryptable'; detail?: string }
> {
  let binary: Uint8Array
  try {
    binary = armor.decode(sealed)
  } catch {
    return { problem: 'not-armor' }
  }
  const decrypter = new Decrypter()
  for (const secret of secrets) decrypter.addIdentity(secret)
  try {
    return { text: await decrypter.decrypt(binary, 'text') }
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unknown error'
    return { problem: detail === NO_MATCH ? 'other-key' : 'undecryptable', detail }
  }
}

export async function openSealedSubmission(
  sealed: string,
  secrets: readonly string[],
): Promise<OpenedSubmission> {
  const decrypted = await decryptSealed(sealed, secrets)
  if ('problem' in decrypted) return decrypted
  try {
    return { document: parseSealedDocument(decrypted.text) }
  } catch (error) {
    if (error instanceof DocumentError) return { problem: error.problem }
    throw error
  }
}
