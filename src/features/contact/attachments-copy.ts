/**
 * The attachments field's words as the page first shows them: plain strings, so the
 * contact page's first load carries nothing more (a test checks them against the limits in
 * src/shared/submission/attachments.ts). What is said once files are attached, in sentences that
 * need the limits and sizes, is in attached-files-copy.ts, loaded with the list.
 */
export const attachmentsFieldCopy = {
  label: 'Attachments (Optional)',
  limits: 'Up to 5 files, up to 25 MB each, any type; encrypted in your browser, names included.',
  /** The picker's button, before a file is listed and after. */
  choose: 'Choose files',
  chooseMore: 'Add more files',
} as const
