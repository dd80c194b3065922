import { ATTACHMENT_LIMITS, formatBytes } from '../../shared/submission/attachments'

const perFile = formatBytes(ATTACHMENT_LIMITS.bytesPerFile).replace('.0 ', ' ')

/**
 * The attachments field's words (issue 26). A module of its own, loaded with the form only: the
 * outbox's status line on every page imports contact-copy.ts, which must stay small.
 */
export const attachmentsCopy = {
  label: 'Attachments (Optional)',
  limits: `Up to ${ATTACHMENT_LIMITS.files} files, up to ${perFile} each, any type. Each file is encrypted in your browser before it is uploaded; its name and type travel only inside the encrypted message.`,
  listLabel: 'Attached files',
  remove: 'Remove',
  removeLabel: (name: string) => `Remove ${name}`,
  tooMany: (count: number) =>
    `You attached ${count} files; the limit is ${ATTACHMENT_LIMITS.files}. Remove ${count - ATTACHMENT_LIMITS.files} to send.`,
  tooLarge: (name: string, size: number) =>
    `"${name}" is ${formatBytes(size)}; the limit is ${perFile} per file. Remove it, or attach a smaller version.`,
  empty: (name: string) => `"${name}" is empty (0 bytes). Remove it, or attach the right file.`,
  sealing: (percent: number) => `Encrypting your files: ${percent} %`,
  uploading: (sent: number, total: number) =>
    `Uploading your encrypted files: ${formatBytes(sent)} of ${formatBytes(total)}`,
} as const
