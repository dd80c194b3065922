/**
 * Sealed attachments: the one setting for their limits, where their ciphertext is stored and how
 * its objects are named. Shared by the form that seals and uploads them, the inbox that downloads
 * and opens them, and the backend (whose database limits a test compares with these). The files'
 * names and types never appear here or in any object name: they travel inside the sealed document
 * (sealed-document.ts, `attachments`).
 */

/** How many files one inquiry carries, and how large each may be (plaintext bytes). */
export const ATTACHMENT_LIMITS = { files: 5, bytesPerFile: 25 * 1024 * 1024 } as const

/** The private Storage bucket holding the ciphertext (anon may only insert into it). */
export const ATTACHMENTS_BUCKET = 'contact-attachments'

/**
 * Ciphertext larger than this goes through Storage's resumable (TUS) endpoint, in chunks of
 * exactly this size (Supabase's advice and requirement); smaller goes as one standard upload.
 */
export const RESUMABLE_THRESHOLD_BYTES = 6 * 1024 * 1024

/** The content type of every object: the bytes are an age file, and say nothing else. */
export const ATTACHMENT_CONTENT_TYPE = 'application/octet-stream'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

/** An object's full name in the bucket: `<submission id>/<object id>`, both lowercase UUIDs. */
export const ATTACHMENT_OBJECT_NAME = new RegExp(`^${UUID}/${UUID}$`)

/** The object name of one attachment of the submission `submissionId`. */
export function attachmentObjectName(submissionId: string, objectId: string): string {
  const name = `${submissionId.toLowerCase()}/${objectId.toLowerCase()}`
  if (!ATTACHMENT_OBJECT_NAME.test(name)) throw new TypeError('not an attachment object name')
  return name
}

/** Lowercase hex SHA-256 of a file's plaintext, as the sealed document carries it. */
export const SHA256_HEX = /^[0-9a-f]{64}$/

/** A file's checks before anything is sealed: how many, none empty, none too large. */
export type AttachmentProblem =
  | { kind: 'too-many'; count: number }
  | { kind: 'empty'; name: string }
  | { kind: 'too-large'; name: string; size: number }

/** What is wrong with a list of files (name and size only), or null when it may be sealed. */
export function checkAttachments(
  files: ReadonlyArray<{ name: string; size: number }>,
): AttachmentProblem | null {
  if (files.length > ATTACHMENT_LIMITS.files) return { kind: 'too-many', count: files.length }
  for (const file of files) {
    if (file.size === 0) return { kind: 'empty', name: file.name }
    if (file.size > ATTACHMENT_LIMITS.bytesPerFile) {
      return { kind: 'too-large', name: file.name, size: file.size }
    }
  }
  return null
}

/** A size for people: "812 bytes", "14.2 KB", "20.0 MB" (1 KB = 1,024 bytes, as the limits). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
