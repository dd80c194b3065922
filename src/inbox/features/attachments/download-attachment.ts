import { ATTACHMENTS_BUCKET } from '../../../shared/submission/attachments'
import type { SealedAttachment } from '../../../shared/submission/sealed-document'
import { supabase } from '../../lib/supabase-client'
import { downloadRefused } from '../../../shared/api/storage'
import { openAndSave, type FileDownloadOutcome } from '../../../shared/files/download-file-browser'
import { fitsDevice } from '../../../shared/crypto/open-file'

/** What "Download" came to, for the sentence beside the file. */
export type DownloadOutcome = FileDownloadOutcome

/**
 * Fetches a sealed file's ciphertext with the staff session (Storage lets signed-in staff at aal2
 * read the form's bucket and the conversation's; no other account), opens it on this device and,
 * when it is the file the document or message describes, hands it to the browser under its
 * original name.
 */
export async function downloadAttachment(
  attachment: SealedAttachment,
  identities: readonly string[],
  bucket: string = ATTACHMENTS_BUCKET,
): Promise<DownloadOutcome> {
  if (!fitsDevice(attachment.size)) return 'too-large'
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'offline'
  const { data, error } = await supabase.storage.from(bucket).download(attachment.object)
  if (error || !data) {
    // The server's words go to the console only.
    console.error('inbox: attachment download failed', error)
    return downloadRefused(error)
  }
  return openAndSave(data, identities, attachment)
}
