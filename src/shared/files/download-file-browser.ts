/**
 * A sealed file's way from its ciphertext to the person's Downloads, for both apps: opened and
 * checked (../crypto/open-file.ts), then handed over (save-file-browser.ts).
 */
import type { SealedAttachment } from '../submission/sealed-document'
import { openAttachment, type OpenedAttachment } from '../crypto/open-file'
import { downloadBlob } from './save-file-browser'

/** What "Download" came to, for the sentence beside the file. */
export type FileDownloadOutcome =
  OpenedAttachment['kind'] | 'offline' | 'busy' | 'not-found' | 'failed'

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
