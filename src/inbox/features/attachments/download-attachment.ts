import { ATTACHMENTS_BUCKET } from '../../../shared/submission/attachments'
import type { SealedAttachment } from '../../../shared/submission/sealed-document'
import { supabase } from '../../lib/supabase-client'
import { fitsDevice, openAttachment, type OpenedAttachment } from '../../../shared/files/open-file'
import { downloadBlob } from '../../../shared/files/save-file-browser'

/** What "Download" came to, for the sentence beside the file. */
export type DownloadOutcome = OpenedAttachment['kind'] | 'offline' | 'not-found' | 'failed'

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
    // Storage's refusals come as HTTP 400 with the real status in `statusCode`.
    const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown }
    const real = Number(statusCode)
    const code = Number.isInteger(real) && real > 0 ? real : Number(status ?? 0)
    if (code === 404) return 'not-found'
    if (code === 0) return 'offline'
    return 'failed'
  }
  const opened = await openAttachment(data, identities, attachment)
  if (opened.kind === 'opened') downloadBlob(opened.file, attachment.name)
  return opened.kind
}
