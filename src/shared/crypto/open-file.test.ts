import { Encrypter, generateIdentity, identityToRecipient } from 'age-encryption'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { fitsDevice, openAttachment } from './open-file'

let identity: string
let recipient: string
beforeAll(async () => {
  identity = await generateIdentity()
  recipient = await identityToRecipient(identity)
})

const plain = new Uint8Array(5 * 1024 * 1024 + 123).map((_, index) => index % 251)
const expected = { size: plain.byteLength, sha256: bytesToHex(sha256(plain)), type: 'image/png' }

async function seal(data: Uint8Array, to = recipient): Promise<Blob> {
  const encrypter = new Encrypter()
  encrypter.addRecipient(to)
  return new Blob([(await encrypter.encrypt(data)) as BlobPart])
}

describe('openAttachment', () => {
  it('opens a sealed file as a stream and checks it against the document', async () => {
    const opened = await openAttachment(await seal(plain), [identity], expected)
    expect(opened.kind).toBe('opened')
    const file = (opened as { file: Blob }).file
    expect(file.type).toBe('image/png')
    expect(file.size).toBe(plain.byteLength)
    expect(bytesToHex(sha256(new Uint8Array(await file.arrayBuffer())))).toBe(expected.sha256)
  })

  it('says a mismatch when the file is not the one the document describes', async () => {
    const other = plain.slice()
    other[10] = 99
    expect((await openAttachment(await seal(other), [identity], expected)).kind).toBe('mismatch')
    const shorter = plain.subarray(0, 1000)
    expect((await openAttachment(await seal(shorter), [identity], expected)).kind).toBe('mismatch')
    expect(
      (await openAttachment(await seal(plain), [identity], { ...expected, size: 1000 })).kind,
    ).toBe('mismatch')
  })

  it('says another key, or damage (cut short, altered, not age), and never opens it', async () => {
    const stranger = await generateIdentity()
    expect((await openAttachment(await seal(plain), [stranger], expected)).kind).toBe('other-key')
    const sealed = new Uint8Array(await (await seal(plain)).arrayBuffer())
    const cut = new Blob([sealed.subarray(0, sealed.byteLength - 70_000)])
    expect((await openAttachment(cut, [identity], expected)).kind).toBe('damaged')
    const altered = sealed.slice()
    altered[altered.byteLength - 5]! ^= 1
    expect((await openAttachment(new Blob([altered]), [identity], expected)).kind).toBe('damaged')
    expect((await openAttachment(new Blob(['not age']), [identity], expected)).kind).toBe('damaged')
  })

  it('says a file is too large for a device with little memory, before fetching it', async () => {
    expect(fitsDevice(40 * 1024 * 1024, 0.25)).toBe(false)
    expect(fitsDevice(25 * 1024 * 1024, 4)).toBe(true)
    expect(fitsDevice(25 * 1024 * 1024, undefined)).toBe(true)
  })
})
