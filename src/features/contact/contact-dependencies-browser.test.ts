import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { ZodError } from 'zod'
import { withPageOutbox } from './contact-dependencies-browser'
import type { Outbox } from './outbox-store'

/** The page's outbox connection, and its recovery when the browser drops it under us. */

const connectionLost = () => new DOMException('The database connection is closing.', 'InvalidStateError')

test('a failure on the cached connection is retried once on a fresh one, which later calls reuse', async () => {
  const seen: Outbox[] = []
  const result = await withPageOutbox(async (outbox) => {
    seen.push(outbox)
    if (seen.length === 1) throw connectionLost()
    return 'stored'
  })

  expect(result).toBe('stored')
  expect(seen).toHaveLength(2)
  expect(seen[1]).not.toBe(seen[0])
  expect(await withPageOutbox(async (outbox) => outbox)).toBe(seen[1])
})

test('a second failure in a row goes to the caller', async () => {
  let calls = 0
  const failing = withPageOutbox(async () => {
    calls += 1
    throw connectionLost()
  })

  await expect(failing).rejects.toThrow('The database connection is closing.')
  expect(calls).toBe(2)
})

test('a submission the schema refuses is not retried, and the connection is kept', async () => {
  const before = await withPageOutbox(async (outbox) => outbox)
  let calls = 0
  const refused = withPageOutbox(async () => {
    calls += 1
    throw new ZodError([])
  })

  await expect(refused).rejects.toBeInstanceOf(ZodError)
  expect(calls).toBe(1)
  expect(await withPageOutbox(async (outbox) => outbox)).toBe(before)
})
