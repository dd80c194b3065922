import { decryptSealed, sealedDecrypter, type Decrypted } from '../crypto/open'
import {
  DocumentError,
  parseSealedDocument,
  type DocumentProblem,
  type SealedDocument,
} from './sealed-document'

/**
 * Opening a stored row's `sealed` as a submission: the one way the staff inbox and
 * `npm run inbox` read one. Each reader words the problems its own way; this says which one it is.
 */

export type OpenProblem = Extract<Decrypted, { problem: string }>['problem'] | DocumentProblem

export type OpenedSubmission =
  | { document: SealedDocument }
  | {
      problem: OpenProblem
      /** typage's words when decryption failed: for a developer's console, never for a page. */
      detail?: string
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

/** `openSealedSubmission` for many rows with the same identities. */
export function sealedSubmissionOpener(
  secrets: readonly string[],
): (sealed: string) => Promise<OpenedSubmission> {
  const decrypt = sealedDecrypter(secrets)
  return async (sealed) => openDecrypted(await decrypt(sealed))
}
