import { ATTACHMENTS_BUCKET } from '../../../shared/submission/attachments'
import type { SealedAttachment } from '../../../shared/submission/sealed-document'
import { supabase } from '../../lib/supabase-client'
import { downloadRefused } from '../../../shared/api/storage'
import { openAndSave, type FileDownloadOutcome } from '../../../shared/files/download-file-browser'
import { fitsDevice } from '../../../shared/crypto/open-file'

/** Fetched with the staff session, opened on this device, and saved only if it is the file listed. */
export async function downloadAttachment(
  attachment: SealedAttachment,
  identities: readonly string[],
  bucket: string = ATTACHMENTS_BUCKET,
): Promise<FileDownloadOutcome> {
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
