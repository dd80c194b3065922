import { afterEach, expect, it, vi } from 'vitest'

afterEach(() => {
  vi.doUnmock('./backend')
  vi.resetModules()
})

it('a backend whose code cannot even be loaded (offline before it was cached) is no answer', async () => {
  vi.doMock('./backend', () => {
    throw new TypeError('Failed to fetch dynamically imported module')
  })
  const { loadBackend, notLoaded } = await import('./load-backend')
  const outcome = await loadBackend().then(() => null, notLoaded)
  expect(outcome).toMatchObject({ kind: 'no-answer', reason: 'noAnswer' })
  // The console gets what failed (Vitest wraps the import error in its own words).
  expect(outcome?.detail).toMatch(/\S/)
})
