import { Decrypter, generateIdentity, identityToRecipient } from 'age-encryption'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { FOLD_BYTES, sealFile } from './seal-file'

async function keys() {
  const identity = await generateIdentity()
  return { identity, recipient: await identityToRecipient(identity) }
}

const bytes = (length: number) => {
  const data = new Uint8Array(length)
  for (let offset = 0; offset < length; offset += 65536) {
    crypto.getRandomValues(data.subarray(offset, Math.min(length, offset + 65536)))
  }
  return data
}

describe('sealFile', () => {
  it('seals a file as a binary age file the identity opens, with its size and SHA-256', async () => {
    const { identity, recipient } = await keys()
    const plain = bytes(FOLD_BYTES + 300_000)
    let reported = 0
    const sealed = await sealFile(new Blob([plain]), [recipient], (n) => (reported += n))
    expect(sealed.size).toBe(plain.byteLength)
    expect(reported).toBe(plain.byteLength)
    expect(sealed.sha256).toBe(bytesToHex(sha256(plain)))
    expect(sealed.ciphertext.type).toBe('application/octet-stream')
    const ciphertext = new Uint8Array(await sealed.ciphertext.arrayBuffer())
    expect(new TextDecoder().decode(ciphertext.subarray(0, 21))).toBe('age-encryption.org/v1')
    // 64 KiB chunks, 16 bytes of tag each: the ciphertext is the plaintext plus a small overhead.
    expect(ciphertext.byteLength - plain.byteLength).toBeLessThan(1024 + 16 * 80)
    const decrypter = new Decrypter()
    decrypter.addIdentity(identity)
    // Compared by digest: toEqual over megabytes takes vitest a minute.
    expect(bytesToHex(sha256(await decrypter.decrypt(ciphertext)))).toBe(sealed.sha256)
  })

  it('seals to every recipient given', async () => {
    const [first, second] = [await keys(), await keys()]
    const sealed = await sealFile(new Blob(['hello']), [first.recipient, second.recipient])
    const ciphertext = new Uint8Array(await sealed.ciphertext.arrayBuffer())
    for (const { identity } of [first, second]) {
      const decrypter = new Decrypter()
      decrypter.addIdentity(identity)
      expect(await decrypter.decrypt(ciphertext, 'text')).toBe('hello')
    }
  })

  it('fails closed with a sentence when the file cannot be read to the end', async () => {
    const { recipient } = await keys()
    const broken = {
      size: 10,
      stream: () =>
        new ReadableStream<Uint8Array>({
          pull: (controller) => controller.error(new DOMException('gone', 'NotReadableError')),
        }),
    } as unknown as Blob
    await expect(sealFile(broken, [recipient])).rejects.toMatchObject({
      name: 'FileSealError',
      reason: 'file-unreadable',
    })
    const shorter = {
      size: 10,
      stream: () => new Blob(['abc']).stream(),
    } as unknown as Blob
    await expect(sealFile(shorter, [recipient])).rejects.toMatchObject({
      reason: 'file-unreadable',
    })
  })
})
