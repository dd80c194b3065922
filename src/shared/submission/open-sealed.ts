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

type Decrypted =
  { text: string } | { problem: 'not-armor' | 'other-key' | 'undecryptable'; detail?: string }

/** The age file in `sealed`, decrypted to text with any of `secrets`, or why it could not be. */
export async function decryptSealed(
  sealed: string,
  secrets: readonly string[],
): Promise<Decrypted> {
  return decryptWith(sealed, decrypterFor(secrets))
}

function decrypterFor(secrets: readonly string[]): Decrypter {
  const decrypter = new Decrypter()
  for (const secret of secrets) decrypter.addIdentity(secret)
  return decrypter
}

async function decryptWith(sealed: string, decrypter: Decrypter): Promise<Decrypted> {
  let binary: Uint8Array
  try {
    binary = armor.decode(sealed)
  } catch {
    return { problem: 'not-armor' }
  }
  try {
    return { text: await decrypter.decrypt(binary, 'text') }
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unknown error'
    return { problem: detail === NO_MATCH ? 'other-key' : 'undecryptable', detail }
  }
}

function openDecrypted(decrypted: Decrypted): OpenedSubmission {
  if ('problem' in decrypted) return decrypted
  try {
    return { document: parseSealedDocument(decrypted.text) }
  } catch (error) {
    if (error instanceof DocumentError) return { problem: error.problem }
    throw error
  }
}

export async function openSealedSubmission(
  sealed: string,
  secrets: readonly string[],
): Promise<OpenedSubmission> {
  return openDecrypted(await decryptSealed(sealed, secrets))
}

/**
 * `openSealedSubmission` for many rows with the same identities: the identities are parsed, and
 * their public keys derived, once (age's Decrypter keeps them), not once per row. The staff inbox
 * opens 2,000 rows this way.
 */
export function sealedSubmissionOpener(
  secrets: readonly string[],
): (sealed: string) => Promise<OpenedSubmission> {
  const decrypter = decrypterFor(secrets)
  return async (sealed) => openDecrypted(await decryptWith(sealed, decrypter))
}
