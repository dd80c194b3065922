import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/** A fresh copy of the loader (it remembers its engine for the page's life). */
async function freshLoader() {
  return (await import('./load-wasm-seal-engine')).loadWasmSealEngine
}

beforeEach(() => {
  vi.resetModules()
})
afterEach(() => {
  vi.doUnmock('./wasm-seal-engine')
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('loadWasmSealEngine', () => {
  it('gives the WebAssembly engine where WebAssembly is allowed, once per page', async () => {
    const load = await freshLoader()
    const engine = await load()
    expect(engine.name).toBe('wasm')
    expect(await load()).toBe(engine)
  })

  it('gives the pure-JavaScript engine in a browser without WebAssembly', async () => {
    vi.stubGlobal('WebAssembly', undefined)
    const load = await freshLoader()
    expect((await load()).name).toBe('pure-js')
  })

  it('asks the policy once, before fetching the engine, and keeps to a refusal', async () => {
    const refusal = new WebAssembly.CompileError('violates the Content Security Policy')
    const compile = vi.spyOn(WebAssembly, 'compile').mockRejectedValue(refusal)
    const fetched = vi.fn()
    vi.doMock('./wasm-seal-engine', () => {
      fetched()
      return { createWasmSealEngine: () => Promise.reject(new Error('never called')) }
    })
    const load = await freshLoader()
    expect((await load()).name).toBe('pure-js')
    expect((await load()).name).toBe('pure-js')
    expect(compile).toHaveBeenCalledTimes(1)
    expect(fetched).not.toHaveBeenCalled()
  })

  it('falls back when the engine refuses to start, and does not try again', async () => {
    const start = vi.fn(() => Promise.reject(new Error('Aborted(CompileError)')))
    vi.doMock('./wasm-seal-engine', () => ({ createWasmSealEngine: start }))
    const load = await freshLoader()
    expect((await load()).name).toBe('pure-js')
    expect((await load()).name).toBe('pure-js')
    expect(start).toHaveBeenCalledTimes(1)
  })

  it('falls back when the engine cannot be downloaded, and tries again next time', async () => {
    vi.doMock('./wasm-seal-engine', () => {
      throw new TypeError('Failed to fetch dynamically imported module')
    })
    const load = await freshLoader()
    expect((await load()).name).toBe('pure-js')
    vi.doUnmock('./wasm-seal-engine')
    expect((await load()).name).toBe('wasm')
  })
})
