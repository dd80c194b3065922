import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Decrypter, generateIdentity, identityToRecipient } from 'age-encryption'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  FOLD_BYTES,
  PAYLOAD_CHUNK_BYTES,
  pureJsSealEngine,
  sealFile,
  type FileSealEngine,
} from './seal-file'
import { unreadableBlob } from './blob-test-fixtures'
import { InProcessWorker } from './sha256-worker-test-fixtures'
import { createWasmSealEngine } from './wasm-seal-engine'

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

/** A Blob whose stream hands the bytes over in slices of `slice` bytes (a browser's vary). */
function sliced(data: Uint8Array, slice: number): Blob {
  return {
    size: data.byteLength,
    stream: () => {
      let at = 0
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= data.byteLength) return controller.close()
          // A copy: the sealer may keep a slice until it knows whether more follows.
          controller.enqueue(data.slice(at, (at += slice)))
        },
      })
    },
  } as unknown as Blob
}

async function openWithTypage(ciphertext: Uint8Array, identity: string) {
  const decrypter = new Decrypter()
  decrypter.addIdentity(identity)
  return decrypter.decrypt(ciphertext)
}

let work: string
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'seal-file-'))
})
afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

/** The stock `age -d` (Debian's age; `npm test` installs it), as staff would open a stored object. */
async function openWithStockAge(ciphertext: Uint8Array, identity: string, name: string) {
  const identityFile = join(work, `${name}.key`)
  const sealedFile = join(work, `${name}.age`)
  await writeFile(identityFile, `${identity}\n`, { mode: 0o600 })
  await writeFile(sealedFile, ciphertext)
  // To stdout: `-o` makes no file at all for an empty plaintext.
  const { stdout } = await promisify(execFile)('age', ['-d', '-i', identityFile, sealedFile], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  })
  return new Uint8Array(stdout)
}

const engines: [string, () => Promise<FileSealEngine>][] = [
  ['the pure-JavaScript engine', async () => pureJsSealEngine],
  // Node has no web workers: this one hashes on the page, as a browser that cannot start one.
  ['the WebAssembly engine', createWasmSealEngine],
  [
    'the WebAssembly engine hashing in its worker',
    async () => {
      vi.stubGlobal('Worker', InProcessWorker)
      try {
        const engine = await createWasmSealEngine()
        // The engine falls back to the page quietly: make sure this one hashes in the worker.
        const hasher = await engine.sha256()
        await hasher.update(new Uint8Array(1))
        await hasher.digest()
        const requests = InProcessWorker.made[0]!.requests.map((request) => request.kind)
        if (!requests.includes('update')) throw new Error('the engine did not hash in its worker')
        return engine
      } finally {
        vi.unstubAllGlobals()
      }
    },
  ],
]

// Every length where the payload's chunking can go wrong: empty, one byte, one under, at and over
// a chunk, several chunks with and without a partial last one, and across the Blob's 4 MB fold.
const LENGTHS = [
  0,
  1,
  PAYLOAD_CHUNK_BYTES - 1,
  PAYLOAD_CHUNK_BYTES,
  PAYLOAD_CHUNK_BYTES + 1,
  3 * PAYLOAD_CHUNK_BYTES,
  3 * PAYLOAD_CHUNK_BYTES + 17,
  FOLD_BYTES + 300_000,
]

describe.each(engines)('sealFile with %s', (engineName, makeEngine) => {
  let engine: FileSealEngine
  beforeAll(async () => {
    engine = await makeEngine()
  })

  it.each(LENGTHS)(
    'a file of %i bytes opens with typage and with the stock age to the same bytes',
    async (length) => {
      const { identity, recipient } = await keys()
      const plain = bytes(length)
      let reported = 0
      const sealed = await sealFile(new Blob([plain]), [recipient], (n) => (reported += n), {
        engine,
      })
      expect(sealed.size).toBe(length)
      expect(reported).toBe(length)
      expect(sealed.sha256).toBe(bytesToHex(sha256(plain)))
      expect(sealed.ciphertext.type).toBe('application/octet-stream')
      const ciphertext = new Uint8Array(await sealed.ciphertext.arrayBuffer())
      // age's own overhead: a header, the 16-byte nonce, a 16-byte tag per 64 KiB chunk.
      const chunks = Math.max(1, Math.ceil(length / PAYLOAD_CHUNK_BYTES))
      const header = new TextDecoder().decode(ciphertext.subarray(0, 300))
      expect(header.startsWith('age-encryption.org/v1\n-> X25519 ')).toBe(true)
      const headerBytes = header.indexOf('\n', header.indexOf('\n--- ') + 1) + 1
      expect(ciphertext.byteLength).toBe(headerBytes + 16 + length + 16 * chunks)
      // Compared by digest: toEqual over megabytes takes vitest a minute.
      const digest = bytesToHex(sha256(plain))
      expect(bytesToHex(sha256(await openWithTypage(ciphertext, identity)))).toBe(digest)
      const name = `${engineName.replace(/\W+/g, '-')}-${length}`
      expect(bytesToHex(sha256(await openWithStockAge(ciphertext, identity, name)))).toBe(digest)
    },
  )

  it('reads whatever slices the stream hands over', async () => {
    const { identity, recipient } = await keys()
    const plain = bytes(5 * PAYLOAD_CHUNK_BYTES)
    for (const slice of [1000, PAYLOAD_CHUNK_BYTES, 3 * PAYLOAD_CHUNK_BYTES + 5, plain.length]) {
      const sealed = await sealFile(sliced(plain, slice), [recipient], undefined, { engine })
      const ciphertext = new Uint8Array(await sealed.ciphertext.arrayBuffer())
      expect(bytesToHex(sha256(await openWithTypage(ciphertext, identity))), `${slice}`).toBe(
        sealed.sha256,
      )
    }
  })

  it('seals to every recipient given, with a fresh file key and nonce each time', async () => {
    const [first, second] = [await keys(), await keys()]
    const file = new Blob(['hello'])
    const once = await sealFile(file, [first.recipient, second.recipient], undefined, { engine })
    const twice = await sealFile(file, [first.recipient, second.recipient], undefined, { engine })
    const ciphertext = new Uint8Array(await once.ciphertext.arrayBuffer())
    for (const { identity } of [first, second]) {
      const decrypter = new Decrypter()
      decrypter.addIdentity(identity)
      expect(await decrypter.decrypt(ciphertext, 'text')).toBe('hello')
    }
    const tail = async (blob: Blob) => new Uint8Array(await blob.slice(-16 - 5 - 16).arrayBuffer())
    expect(await tail(twice.ciphertext)).not.toEqual(await tail(once.ciphertext))
  })
})

describe('sealFile', () => {
  it('seals with the pure-JavaScript engine when given none', async () => {
    const { identity, recipient } = await keys()
    const sealed = await sealFile(new Blob(['no engine named']), [recipient])
    const ciphertext = new Uint8Array(await sealed.ciphertext.arrayBuffer())
    expect(new TextDecoder().decode(await openWithTypage(ciphertext, identity))).toBe(
      'no engine named',
    )
  })

  it('the engines seal alike: the same key and nonce give the same chunk', async () => {
    const wasm = await createWasmSealEngine()
    const key = bytes(32)
    const nonce = bytes(12)
    const plain = bytes(PAYLOAD_CHUNK_BYTES)
    expect(wasm.seal(key, nonce, plain)).toEqual(pureJsSealEngine.seal(key, nonce, plain))
    const [a, b] = [await wasm.sha256(), await pureJsSealEngine.sha256()]
    for (const hasher of [a, b]) await hasher.update(plain)
    expect(await a.digest()).toEqual(await b.digest())
  })

  it('refuses to seal to nobody: an age header needs one stanza or more', async () => {
    await expect(sealFile(new Blob(['x']), [])).rejects.toMatchObject({
      name: 'SealError',
      reason: 'no-recipients',
    })
  })

  it('refuses a recipient age does not know', async () => {
    await expect(sealFile(new Blob(['x']), ['age1nope'])).rejects.toMatchObject({
      name: 'SealError',
      reason: 'invalid-recipient',
    })
  })

  it('fails closed when the engine fails', async () => {
    const { recipient } = await keys()
    const broken: FileSealEngine = {
      ...pureJsSealEngine,
      seal: () => {
        throw new Error('out of memory')
      },
    }
    await expect(
      sealFile(new Blob(['x']), [recipient], undefined, { engine: broken }),
    ).rejects.toMatchObject({ name: 'SealError', reason: 'encrypt-failed' })
  })

  it('fails closed with a sentence when the file cannot be read to the end', async () => {
    const { recipient } = await keys()
    await expect(sealFile(unreadableBlob(), [recipient])).rejects.toMatchObject({
      name: 'SealError',
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
