/**
 * `npx tsx tests/bench/seal-floor.ts`: the floor under sealing an attachment (issue 26), in Node,
 * without a browser. Times the three pure-JavaScript primitives a 25 MB file goes through one
 * 64 KiB chunk at a time (age's STREAM: ChaCha20 and Poly1305 from @noble/ciphers; the plaintext's
 * SHA-256 from @noble/hashes), then the whole of `sealFile` over a Blob. Each is run 3 times, the
 * best kept (the machine is shared). The gap between the primitives' sum and `sealFile` is what
 * the streams, the copies and the Blob folding cost; what the primitives take is the floor.
 *
 * Prints a table; writes nothing; exits 0 (it measures, the browser bench judges the target).
 */
import { randomBytes } from 'node:crypto'
import { chacha20, chacha20poly1305 } from '@noble/ciphers/chacha.js'
import { poly1305 } from '@noble/ciphers/_poly1305.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { sealFile } from '../../src/shared/files/seal-file'

const MB = 1024 * 1024
const FILE_BYTES = 25 * MB
const CHUNK = 64 * 1024
const RUNS = 3

async function best(run: () => unknown): Promise<number> {
  let fastest = Infinity
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    await run()
    fastest = Math.min(fastest, performance.now() - start)
  }
  return fastest
}

async function main() {
  const data = new Uint8Array(randomBytes(FILE_BYTES))
  const key = new Uint8Array(32)
  const nonce = new Uint8Array(12)
  const chunks = (each: (chunk: Uint8Array) => unknown) => () => {
    for (let at = 0; at < FILE_BYTES; at += CHUNK) each(data.subarray(at, at + CHUNK))
  }
  const recipient = await identityToRecipient(await generateIdentity())
  const blob = new Blob([data])
  const timings: Record<string, number> = {
    chacha20: await best(chunks((chunk) => chacha20(key, nonce, chunk))),
    poly1305: await best(chunks((chunk) => poly1305(chunk, key))),
    'chacha20poly1305 (age STREAM)': await best(
      chunks((chunk) => chacha20poly1305(key, nonce).encrypt(chunk)),
    ),
    sha256: await best(() => {
      const hash = sha256.create()
      chunks((chunk) => hash.update(chunk))()
      return hash.digest()
    }),
    sealFile: await best(() => sealFile(blob, [recipient])),
  }
  const table = Object.fromEntries(
    Object.entries(timings).map(([name, ms]) => [
      name,
      { ms: Math.round(ms), 'MB/s': +(FILE_BYTES / MB / (ms / 1000)).toFixed(1) },
    ]),
  )
  console.table(table)
  // 20 MB/s with the CPU slowed 4x leaves this many ms of full-speed CPU for 25 MB.
  console.log(`budget for 20 MB/s at 4x: ${Math.round(((FILE_BYTES / MB / 20) * 1000) / 4)} ms`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
