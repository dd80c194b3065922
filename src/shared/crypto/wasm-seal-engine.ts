/**
 * The WebAssembly engine for sealing files (seal-file.ts): ChaCha20-Poly1305 from libsodium
 * (libsodium-wrappers, the reference C library built to WebAssembly) and SHA-256 from hash-wasm
 * (hand-written WebAssembly), the hash in a worker of its own beside the cipher where one can
 * run. Both about 2 to 4 times faster than the pure-JavaScript engine in Chromium, which is what
 * lets a slow phone seal a 25 MB file in about a second (src/features/contact/README.md,
 * "Attachments, measured").
 *
 * Loaded only through load-wasm-seal-engine.ts: compiling it needs the page's policy to allow WebAssembly
 * (`'wasm-unsafe-eval'`), which only the public site's does (src/README.md, "Decisions").
 */
import sodium from 'libsodium-wrappers'
import { createSHA256 } from 'hash-wasm'
import type { FileSealEngine, Sha256Hasher } from './seal-file'
import { startSha256Worker } from './sha256-in-worker-browser'

/**
 * Compiles both modules and starts the hashing worker; rejects if this browser or the page's
 * policy refuses WebAssembly. Where the worker cannot run, the page hashes too (slower, same hash).
 */
export async function createWasmSealEngine(): Promise<FileSealEngine> {
  await sodium.ready
  // Compiled once here, so a refusal shows now; each file then gets its own instance.
  await createSHA256()
  const worker = await startSha256Worker().catch(() => null)
  return {
    name: 'wasm',
    seal: (key, nonce, plaintext) =>
      sodium.crypto_aead_chacha20poly1305_ietf_encrypt(plaintext, null, null, nonce, key),
    sha256: () => worker?.hasher() ?? pageSha256(),
  }
}

/** hash-wasm's SHA-256 on the page itself. */
async function pageSha256(): Promise<Sha256Hasher> {
  const hasher = (await createSHA256()).init()
  return {
    update: (data) => void hasher.update(data),
    digest: () => hasher.digest('binary'),
  }
}
