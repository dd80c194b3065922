import { ATTACHMENT_LIMITS, formatBytes } from '../../shared/submission/attachments'

const perFile = formatBytes(ATTACHMENT_LIMITS.bytesPerFile).replace('.0 ', ' ')

/**
 * What the attachments field says once files are attached, and the progress under the button.
 */
export const attachedFilesCopy = {
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
