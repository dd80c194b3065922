// What the console gets when the crypto chunk cannot load (the visitor gets the SealingError's
// sentence). The loading itself is covered in load-sealer.test.ts.
import { afterEach, expect, it, vi } from 'vitest'

afterEach(() => {
  vi.doUnmock('./seal-submission')
  vi.resetModules()
})

it('a failed load keeps the network error as its cause, so the console says what went wrong', async () => {
  vi.doMock('./seal-submission', () => {
    throw new TypeError('Failed to fetch dynamically imported module')
  })
  const { loadSealer } = await import('./load-sealer')

  const failure = await loadSealer().catch((error: unknown) => error)

  expect(failure).toMatchObject({ name: 'SealingError', reason: 'unavailable' })
  // Vitest wraps the import's error in its own; the browser hands over the TypeError itself.
  expect((failure as Error).cause).toBeInstanceOf(Error)
})
