/**
 * Files in the conversation: where a reply's sealed files are stored and how their objects are
 * named, and the header that lets a visitor read them. The inbox that seals and uploads them, the
 * site that opens them on /replies, the backend's tests and the migration
 * (supabase/migrations/…_files.sql) say the same; README.md beside this file
 * tells the whole. A file's limits, content type and upload path are the form's
 * (../submission/attachments.ts).
 */

/**
 * The private bucket of the conversation's files, apart from the form's: staff at aal2 insert and
 * read; a visitor reads only with the thread's mailbox token.
 */
export const CONVERSATION_FILES_BUCKET = 'conversation-files'

/**
 * The request header carrying the mailbox token to Storage, where the bucket's policy reads it
 * (request.headers). Lowercase: Storage hands the database the headers as Node lowercases them.
 */
export const MAILBOX_TOKEN_HEADER = 'x-mailbox-token'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

/** An object's full name: `<inquiry id>/<message id>/<object id>`, lowercase UUIDs. */
export const REPLY_FILE_OBJECT_NAME = new RegExp(`^${UUID}/${UUID}/${UUID}$`)

/** The object name of one file of the message `messageId` in the inquiry `inquiryId`'s thread. */
export function replyFileObjectName(
  inquiryId: string,
  messageId: string,
  objectId: string,
): string {
  const name = [inquiryId, messageId, objectId].map((id) => id.toLowerCase()).join('/')
  if (!REPLY_FILE_OBJECT_NAME.test(name)) throw new TypeError('not a reply file object name')
  return name
}

/** The folder every file of one message sits in: `<inquiry id>/<message id>/`. */
export const replyFileFolder = (inquiryId: string, messageId: string) =>
  `${inquiryId.toLowerCase()}/${messageId.toLowerCase()}/`
