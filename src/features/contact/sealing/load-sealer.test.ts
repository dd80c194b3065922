import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  vi.doUnmock('./seal-submission')
  vi.resetModules()
})

describe('loadSealer', () => {
  it('loads the sealing module once, however often it is asked', async () => {
    const { loadSealer, preloadSealer } = await import('./load-sealer')
    preloadSealer()
    const [first, second] = await Promise.all([loadSealer(), loadSealer()])
    expect(first).toBe(second)
    expect(typeof first.sealSubmission).toBe('function')
    expect(typeof first.preload).toBe('function')
  })

  it('rejects a failed load, and tries again next time', async () => {
    let attempts = 0
    vi.doMock('./seal-submission', () => {
      attempts += 1
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module')
      return { sealSubmission: () => undefined }
    })
    const { loadSealer, preloadSealer } = await import('./load-sealer')

    preloadSealer() // a failed preload is silent
    const failure = await loadSealer().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    await expect(loadSealer()).resolves.toMatchObject({ sealSubmission: expect.any(Function) })
    expect(attempts).toBe(2)
  })

  it('warms the sealer up once, on the first preload', async () => {
    const preload = vi.fn(async () => undefined)
    vi.doMock('./seal-submission', () => ({ sealSubmission: vi.fn(), preload }))
    const { loadSealer, preloadSealer } = await import('./load-sealer')

    preloadSealer()
    preloadSealer()
    await loadSealer()
    await vi.waitFor(() => expect(preload).toHaveBeenCalledTimes(1))
    preloadSealer()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(preload).toHaveBeenCalledTimes(1)
  })

  it('starts loading what seals files only when asked (a file attached), and silently', async () => {
    const preloadFileSealing = vi.fn()
    vi.doMock('./seal-submission', () => ({ sealSubmission: vi.fn(), preloadFileSealing }))
    const { loadSealer, preloadFileSealing: preloadFiles } = await import('./load-sealer')
    await loadSealer()
    expect(preloadFileSealing).not.toHaveBeenCalled()
    preloadFiles()
    await vi.waitFor(() => expect(preloadFileSealing).toHaveBeenCalledTimes(1))
  })
})
