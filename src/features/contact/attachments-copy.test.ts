import { expect, it } from 'vitest'
import { ATTACHMENT_LIMITS } from '../../shared/submission/attachments'
import { attachmentsFieldCopy } from './attachments-copy'

it('states the limits the contract sets (plain text, so the first load carries no computation)', () => {
  expect(attachmentsFieldCopy.limits).toContain(`Up to ${ATTACHMENT_LIMITS.files} files`)
  expect(attachmentsFieldCopy.limits).toContain(
    `up to ${ATTACHMENT_LIMITS.bytesPerFile / (1024 * 1024)} MB each`,
  )
})
