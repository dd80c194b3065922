/**
 * A reply's files, from the picked File to stored ciphertext: each sealed as a stream with
 * sealFile to exactly the reply's recipients (the visitor's reply_to and the agency's), named
 * `<inquiry>/<reply id>/<random uuid>`, and uploaded into the conversation's bucket with the staff
 * session by the uploader the site's form uses (src/shared/api/storage.ts: one standard
 * upload up to 6 MB, tus-js-client above, in 6 MB chunks). Loaded only when a reply has files, so
 * age's stream code and tus-js-client never load with an inquiry.
 *
 * What is sealed and stored is kept for the draft (the same reply id): a retry after a failure
 * seals nothing again and uploads only what was not stored yet. A resumable upload is not
 * remembered across visits (nothing about a reply is written to the inbox's storage); a cut one
 * is retried by tus-js-client within the call.
 */
import { sealFile, type FileSeal } from '../../../shared/crypto/seal-file'
import { uploadFiles, type UploadOutcome, type UploadProgress } from '../../../shared/api/storage'
import {
  CONVERSATION_FILES_BUCKET,
  replyFileObjectName,
} from '../../../shared/conversation/reply-files'
import { listedFileName, listedFileType } from '../../../shared/files/file-label'
import type { SealedAttachment } from '../../../shared/submission/sealed-document'
import { inboxEnv } from '../../lib/inbox-env'
import { supabase } from '../../lib/supabase-client'

/** One picked file of a draft, sealed, and whether its ciphertext is stored. */
export type PreparedFile = {
  source: File
  attachment: SealedAttachment
  ciphertext: FileSeal['ciphertext']
  stored: boolean
}

/**
 * Seals each of `files` not sealed before for this draft (`earlier`, matched by the File itself),
 * one after the other, to `recipients`. Throws a SealError when a file cannot be read or sealed.
 */
export async function prepareReplyFiles(
  files: readonly File[],
  draft: { inquiryId: string; replyId: string },
  recipients: readonly string[],
  earlier: readonly PreparedFile[],
): Promise<PreparedFile[]> {
  const prepared: PreparedFile[] = []
  for (const source of files) {
    const kept = earlier.find((candidate) => candidate.source === source)
    if (kept) {
      prepared.push(kept)
      continue
    }
    const object = replyFileObjectName(draft.inquiryId, draft.replyId, crypto.randomUUID())
    const sealed = await sealFile(source, recipients)
    prepared.push({
      source,
      ciphertext: sealed.ciphertext,
      attachment: {
        object,
        name: listedFileName(source.name),
        type: listedFileType(source.type),
        size: sealed.size,
        sha256: sealed.sha256,
      },
      stored: false,
    })
  }
  return prepared
}

/**
 * Uploads the files not stored yet as the signed-in staff member (Storage's policy: aal2 staff,
 * an open thread, the reply not stored yet), marking each one stored as it lands.
 */
export async function uploadReplyFiles(
  files: readonly PreparedFile[],
  bearer: string | null,
  onProgress?: UploadProgress,
): Promise<UploadOutcome> {
  const pending = files.filter((file) => !file.stored)
  if (pending.length === 0) return { kind: 'delivered' }
  if (!bearer) return { kind: 'refused', reason: 'fileRefused', detail: 'no staff session' }
  return uploadFiles(
    pending.map((file) => ({ object: file.attachment.object, ciphertext: file.ciphertext })),
    {
      storage: supabase.storage,
      url: inboxEnv.supabaseUrl,
      apikey: inboxEnv.supabaseAnonKey,
      bearer,
      bucket: CONVERSATION_FILES_BUCKET,
      resumeKeyPrefix: null,
    },
    onProgress,
    (object) => {
      const stored = pending.find((file) => file.attachment.object === object)
      if (stored) stored.stored = true
    },
  )
}
