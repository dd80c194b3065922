/**
 * The way to the WebAssembly engine for sealing files (wasm-seal-engine.ts), with the
 * pure-JavaScript engine as the answer whenever it cannot be had. Only the public site uses it:
 * its policy allows WebAssembly (`'wasm-unsafe-eval'`); the staff inbox's does not, so the inbox
 * seals with the default engine and must not import this module.
 */
import { pureJsSealEngine, type FileSealEngine } from './seal-file'
import type * as WasmSealEngine from './wasm-seal-engine'

/** The smallest valid module (the magic number and version): compiling it asks the policy only. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00])

let engine: Promise<FileSealEngine> | undefined

/**
 * Whether this page may compile WebAssembly at all: not in browsers without it (iOS Lockdown
 * Mode), nor where the page's policy forbids it (a host that dropped `'wasm-unsafe-eval'`, a
 * browser older than that keyword). Asked with an empty module before the engine is fetched, so a
 * refusal costs no download and at most one violation report per page.
 */
async function webAssemblyAllowed(): Promise<boolean> {
  if (typeof WebAssembly === 'undefined') return false
  try {
    await WebAssembly.compile(EMPTY_MODULE)
    return true
  } catch {
    return false
  }
}

async function load(): Promise<FileSealEngine> {
  if (!(await webAssemblyAllowed())) return pureJsSealEngine
  let module: typeof WasmSealEngine
  try {
    module = await import('./wasm-seal-engine')
  } catch {
    // Not downloaded (offline before the service worker had it): try again next time.
    engine = undefined
    return pureJsSealEngine
  }
  try {
    return await module.createWasmSealEngine()
  } catch {
    // Refused after all: this page keeps the pure-JavaScript engine.
    return pureJsSealEngine
  }
}

/**
 * The WebAssembly engine, or the pure-JavaScript one when WebAssembly is refused or its code cannot
 * load. Never rejects. Loads once per page; a failed download is tried again on the next call, a
 * refusal is not (each attempt would be one more violation report).
 */
export function loadWasmSealEngine(): Promise<FileSealEngine> {
  engine ??= load()
  return engine
}
