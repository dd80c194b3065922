// @vitest-environment node
import { hexToBytes } from '@noble/hashes/utils.js'
import { generateIdentity } from 'age-encryption'
import { describe, expect, it } from 'vitest'
import {
  agencySigningSeed,
  agencySigningSeedOf,
  asSigningSeed,
  signingKeyOf,
  signText,
  verifyText,
} from './signing'

// RFC 8032, section 7.1, TEST 1 (the empty message).
const RFC_SEED = asSigningSeed(
  hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'),
)
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'
const RFC_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b'

describe('signatures', () => {
  it('are RFC 8032 Ed25519', () => {
    expect(signingKeyOf(RFC_SEED)).toBe(RFC_PUBLIC)
    expect(signText('', RFC_SEED)).toBe(RFC_SIGNATURE)
    expect(verifyText('', RFC_SIGNATURE, [RFC_PUBLIC])).toBe(true)
  })

  it('hold for the message and key they were made with, and for no other', () => {
    const signature = signText('a reply', RFC_SEED)
    const other = signingKeyOf(asSigningSeed(new Uint8Array(32).fill(7)))
    expect(verifyText('a reply', signature, [other, RFC_PUBLIC])).toBe(true)
    expect(verifyText('a reply.', signature, [RFC_PUBLIC])).toBe(false)
    expect(verifyText('a reply', signature, [other])).toBe(false)
    expect(verifyText('a reply', signature, [])).toBe(false)
    const flipped = (signature[0] === '0' ? '1' : '0') + signature.slice(1)
    expect(verifyText('a reply', flipped, [RFC_PUBLIC])).toBe(false)
    expect(verifyText('a reply', 'not hex', [RFC_PUBLIC])).toBe(false)
    expect(verifyText('a reply', signature, ['not a key'])).toBe(false)
  })

  it('use an agency key derived from its age identity: the same on every device, never its bytes', async () => {
    const identity = await generateIdentity()
    const seed = agencySigningSeed(identity)
    expect(seed).not.toBeNull()
    expect(signingKeyOf(agencySigningSeed(identity)!)).toBe(signingKeyOf(seed!))
    expect(signingKeyOf(agencySigningSeedOf(['AGE-PLUGIN-YUBIKEY-1X', identity])!)).toBe(
      signingKeyOf(seed!),
    )
    expect(signingKeyOf(agencySigningSeed(await generateIdentity())!)).not.toBe(signingKeyOf(seed!))
    expect(agencySigningSeed('AGE-SECRET-KEY-1NOTBECH32')).toBeNull()
  })
})
