/**
 * Uploading a visitor's sealed attachments (the interface: /work FILES.md, in short: the private
 * bucket, insert only, `application/octet-stream`, no metadata but the object's name), with the
 * uploader both apps share (src/shared/files/upload-files.ts) as anon, through the site's one
 * client. A started resumable upload is remembered across visits (localStorage,
 * `contact-attachment:<object>`, naming no file, removed on success), so the outbox resumes it.
 * Loaded only when files are sent (from send-to-supabase.ts), never with a page.
 */
import { siteEnv } from '../../../lib/env'
import { supabase } from '../../../lib/supabase'
import {
  uploadFiles,
  type SealedUpload,
  type UploadProgress,
} from '../../../shared/files/upload-files'
import type { UploadOutcome } from '../../../shared/files/upload-outcome'
import { ATTACHMENTS_BUCKET } from '../../../shared/submission/attachments'

export type { SealedUpload, UploadProgress }

/** Where tus-js-client keeps a started upload's URL: the object's name, no content. */
export const RESUME_KEY_PREFIX = 'contact-attachment:'

/** Every file, one after the other; delivered once all are stored (upload-files.ts). */
export const uploadAttachments = (
  files: readonly SealedUpload[],
  onProgress?: UploadProgress,
): Promise<UploadOutcome> =>
  uploadFiles(
    files,
    {
      storage: supabase.storage,
      url: siteEnv.supabaseUrl,
      apikey: siteEnv.supabaseAnonKey,
      bearer: siteEnv.supabaseAnonKey,
      bucket: ATTACHMENTS_BUCKET,
      resumeKeyPrefix: RESUME_KEY_PREFIX,
    },
    onProgress,
  )
