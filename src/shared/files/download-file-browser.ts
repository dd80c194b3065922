/**
 * A sealed file's way from Storage's answer to the person's Downloads, for both apps: the staff
 * inbox (the form's files and replies', with the staff session) and /replies (a reply's files, as
 * anon with the mailbox token). Each app fetches with its own client, bucket and headers; what the
 * answer means, the opening (open-file.ts) and the hand-over (save-file-browser.ts) are the same.
 */
import type { SealedAttachment } from '../submission/sealed-document'
import { openAttachment, type OpenedAttachment } from '../crypto/open-file'
import { downloadBlob } from './save-file-browser'
import { storageStatus, type StorageRefusal } from './upload-outcome'

/** What "Download" came to, for the sentence beside the file. */
export type FileDownloadOutcome = OpenedAttachment['kind'] | 'offline' | 'not-found' | 'failed'

/** Storage's refusal of a download, as an outcome (its words go to the console only). */
export function downloadRefused(error: unknown): 'not-found' | 'offline' | 'failed' {
  const code = storageStatus((error ?? {}) as StorageRefusal)
  if (code === 404) return 'not-found'
  if (code === 0) return 'offline'
  return 'failed'
}

/**
 * Opens `ciphertext` with `identities` and, when it is the file the document describes, hands it
 * to the browser as an ordinary download under its original name.
 */
export async function openAndSave(
  ciphertext: Blob,
  identities: readonly string[],
  file: SealedAttachment,
): Promise<FileDownloadOutcome> {
  const opened = await openAttachment(ciphertext, identities, file)
  if (opened.kind === 'opened') downloadBlob(opened.file, file.name)
  return opened.kind
}
