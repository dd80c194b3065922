/**
 * Sealing one file as a stream: read in the browser's own slices, each slice hashed (SHA-256 of
 * the plaintext, for the document) and encrypted in age's 64 KiB chunks, the ciphertext gathered
 * into a Blob a few megabytes at a time, so neither the plaintext nor the ciphertext is ever whole
 * in the page's heap.
 *
 * typage writes the header (the recipients' stanzas and its MAC); the payload is written here, by
 * the age spec (https://age-encryption.org/v1, "Payload"), because typage's STREAM cannot use
 * another cipher, and its pure-JavaScript one is too slow on a slow phone. An engine supplies the
 * two primitives: pure JavaScript by default (@noble, what typage uses), or WebAssembly
 * (wasm-seal-engine.ts) where the page's policy allows it.
 */
import { Encrypter, type Recipient } from 'age-encryption'
import { chacha20poly1305 } from '@noble/ciphers/chacha.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { ATTACHMENT_CONTENT_TYPE } from '../submission/attachments'
import { recipientSet } from './recipients'
import { SealError } from './seal-error'

/** Ciphertext is folded into the Blob every this many bytes, so the page holds at most this much. */
export const FOLD_BYTES = 4 * 1024 * 1024

/** age's STREAM chunk: 64 KiB of plaintext, each sealed with a 16-byte Poly1305 tag. */
export const PAYLOAD_CHUNK_BYTES = 64 * 1024
const TAG_BYTES = 16
const PAYLOAD_NONCE_BYTES = 16

/** A file sealed: its ciphertext (an age file, binary), and its plaintext's size and SHA-256. */
export type FileSeal = { ciphertext: Blob; size: number; sha256: string }

/**
 * An incremental SHA-256. One that runs elsewhere (sha256-in-worker-browser.ts) answers `update`
 * with a promise when it is too far behind, and the next slice waits for it; its digest comes later.
 */
export type Sha256Hasher = {
  update(data: Uint8Array): void | Promise<void>
  digest(): Uint8Array | Promise<Uint8Array>
  /** Drops a hash that will never be finished (a seal that failed), where it holds anything. */
  abort?(): void
}

/**
 * The two primitives a file's seal spends its time in. Both must be exactly the standard ones
 * (the output is an ordinary age file whoever opens it): `seal` is ChaCha20-Poly1305 as RFC 8439
 * defines it (32-byte key, 12-byte nonce, no associated data), returning the ciphertext followed by
 * its 16-byte tag; `sha256` starts a new SHA-256 (one per file, so two seals never share one).
 */
export type FileSealEngine = {
  readonly name: string
  seal(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array): Uint8Array
  sha256(): Sha256Hasher | Promise<Sha256Hasher>
}

/** Pure JavaScript (@noble, audited, as typage uses): runs anywhere, with no WebAssembly. */
export const pureJsSealEngine: FileSealEngine = {
  name: 'pure-js',
  seal: (key, nonce, plaintext) => chacha20poly1305(key, nonce).encrypt(plaintext),
  sha256: () => {
    const hasher = sha256.create()
    return { update: (data) => void hasher.update(data), digest: () => hasher.digest() }
  },
}

export type SealFileOptions = {
  /** Where the cipher and the hash run; by default pure JavaScript (pureJsSealEngine). */
  engine?: FileSealEngine
}

/**
 * Seals `file` to `recipients`. `onBytes(n)` reports each slice of plaintext as it is sealed.
 * Throws a SealError: 'no-recipients' or 'invalid-recipient' (an age header needs one stanza or
 * more), 'file-unreadable' when the file cannot be read to the end or changes size meanwhile,
 * 'encrypt-failed' when age or the engine fails.
 */
export async function sealFile(
  file: Blob,
  recipients: readonly string[],
  onBytes?: (bytes: number) => void,
  options: SealFileOptions = {},
): Promise<FileSeal> {
  const engine = options.engine ?? pureJsSealEngine
  const { header, fileKey } = await ageHeader(recipients)
  let hash: Sha256Hasher
  let payload: ReturnType<typeof payloadWriter>
  try {
    hash = await engine.sha256()
    payload = payloadWriter(engine, fileKey)
  } catch (cause) {
    throw new SealError('encrypt-failed', { cause })
  }
  const output = blobBuilder([header, payload.nonce])
  let read = 0
  try {
    const reader = file.stream().getReader()
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>
      try {
        next = await reader.read()
      } catch (cause) {
        throw new SealError('file-unreadable', { cause })
      }
      if (next.done) break
      const behind = hash.update(next.value)
      read += next.value.byteLength
      onBytes?.(next.value.byteLength)
      payload.write(next.value, output.add)
      if (behind) await behind
    }
    if (read !== file.size) {
      throw new SealError('file-unreadable', {
        cause: new Error('the file changed size while being read'),
      })
    }
    payload.end(output.add)
    const digest = await hash.digest()
    return { ciphertext: output.blob(), size: read, sha256: bytesToHex(digest) }
  } catch (cause) {
    hash.abort?.()
    throw cause instanceof SealError ? cause : new SealError('encrypt-failed', { cause })
  }
}

/**
 * The age header for `recipients`, and the file key it wraps. typage writes it: the real
 * recipients' stanzas and the MAC over them. One more recipient, which adds no stanza, hands over
 * the file key; the empty payload typage writes after the header is dropped (its nonce and
 * chunk key are never used: the payload gets a nonce of its own).
 */
async function ageHeader(recipients: readonly string[]) {
  const checked = recipientSet(recipients)
  const encrypter = new Encrypter()
  try {
    for (const recipient of checked) encrypter.addRecipient(recipient)
  } catch (cause) {
    throw new SealError('invalid-recipient', { cause })
  }
  let fileKey: Uint8Array | undefined
  const keyHolder: Recipient = {
    wrapFileKey(key) {
      fileKey = key.slice()
      return []
    },
  }
  encrypter.addRecipient(keyHolder)
  let sealed: Uint8Array
  try {
    sealed = await encrypter.encrypt(new Uint8Array(0))
  } catch (cause) {
    throw new SealError('encrypt-failed', { cause })
  }
  // An empty plaintext's payload: the 16-byte nonce, then one empty chunk's 16-byte tag.
  const header = sealed.slice(0, sealed.byteLength - PAYLOAD_NONCE_BYTES - TAG_BYTES)
  const text = new TextDecoder().decode(header)
  if (
    fileKey?.byteLength !== 16 ||
    !text.startsWith('age-encryption.org/v1\n') ||
    !/\n--- [A-Za-z0-9+/]{43}\n$/.test(text)
  ) {
    throw new SealError('encrypt-failed', { cause: new Error('unexpected age header') })
  }
  return { header, fileKey }
}

/**
 * age's payload (the spec's STREAM): a random 16-byte nonce, the payload key derived from the
 * file key with HKDF-SHA-256 (salt: that nonce; info: "payload"), then the plaintext in 64 KiB
 * chunks, each sealed with the nonce = an 11-byte big-endian chunk counter and a last-chunk flag
 * byte (1 only on the last chunk). The last chunk may be a full 64 KiB; it is empty only when the
 * whole plaintext is. So a full chunk is held until more plaintext shows it was not the last.
 */
function payloadWriter(engine: FileSealEngine, fileKey: Uint8Array) {
  const nonce = crypto.getRandomValues(new Uint8Array(PAYLOAD_NONCE_BYTES))
  const key = hkdf(sha256, fileKey, nonce, new TextEncoder().encode('payload'), 32)
  const chunkNonce = new Uint8Array(12)
  let counter = 0
  // A full chunk not sealed yet (it may be the last), and the partial one being filled.
  let held: Uint8Array | null = null
  let partial = new Uint8Array(PAYLOAD_CHUNK_BYTES)
  let filled = 0

  const seal = (chunk: Uint8Array, last: boolean) => {
    // The counter's low 32 bits; its top 7 bytes stay zero below 2^32 chunks (256 TiB), and past
    // that a nonce would repeat, so refuse rather than wrap.
    if (counter >= 2 ** 32) throw new RangeError('too many chunks for one file')
    new DataView(chunkNonce.buffer).setUint32(7, counter)
    chunkNonce[11] = last ? 1 : 0
    counter += 1
    return engine.seal(key, chunkNonce, chunk)
  }
  const full = (chunk: Uint8Array, emit: (part: Uint8Array) => void) => {
    if (held) emit(seal(held, false))
    held = chunk
  }

  return {
    nonce,
    /** Takes the next plaintext bytes (kept until sealed, so they must not change). */
    write(data: Uint8Array, emit: (part: Uint8Array) => void) {
      let at = 0
      while (at < data.byteLength) {
        if (filled === 0 && data.byteLength - at >= PAYLOAD_CHUNK_BYTES) {
          full(data.subarray(at, at + PAYLOAD_CHUNK_BYTES), emit)
          at += PAYLOAD_CHUNK_BYTES
          continue
        }
        const n = Math.min(PAYLOAD_CHUNK_BYTES - filled, data.byteLength - at)
        partial.set(data.subarray(at, at + n), filled)
        filled += n
        at += n
        if (filled === PAYLOAD_CHUNK_BYTES) {
          full(partial, emit)
          partial = new Uint8Array(PAYLOAD_CHUNK_BYTES)
          filled = 0
        }
      }
    },
    /** Seals what is left, flagging the last chunk. */
    end(emit: (part: Uint8Array) => void) {
      if (filled > 0 || !held) {
        if (held) emit(seal(held, false))
        emit(seal(partial.subarray(0, filled), true))
      } else {
        emit(seal(held, true))
      }
      held = null
    },
  }
}

/** Gathers parts into one Blob, folding them in every FOLD_BYTES so the page never holds more. */
function blobBuilder(first: Uint8Array[]) {
  let blob = new Blob([], { type: ATTACHMENT_CONTENT_TYPE })
  let parts: Uint8Array[] = [...first]
  let held = 0
  const fold = () => {
    blob = new Blob([blob, ...(parts as BlobPart[])], { type: ATTACHMENT_CONTENT_TYPE })
    parts = []
    held = 0
  }
  return {
    add(part: Uint8Array) {
      parts.push(part)
      held += part.byteLength
      if (held >= FOLD_BYTES) fold()
    },
    blob() {
      fold()
      return blob
    },
  }
}
