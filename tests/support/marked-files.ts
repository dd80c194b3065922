import { randomBytes } from 'node:crypto'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'

/**
 * What the sealed-file specs search for: files carrying a marker in their name and content, and
 * every request a page makes, so that a test can say the marker travelled nowhere in clear.
 */

export type MarkedFile = { path: string; name: string; bytes: Buffer }

/**
 * A file on disk named `<mark> <name>`, of `size` random bytes with `mark` written at its start,
 * middle and end.
 */
export async function markedFile(mark: string, size: number, name: string): Promise<MarkedFile> {
  const folder = await mkdtemp(join(tmpdir(), 'marked-file-'))
  const bytes = randomBytes(size)
  for (const at of [0, Math.floor(size / 2), size - mark.length]) bytes.write(mark, at, 'latin1')
  const path = join(folder, `${mark} ${name}`)
  await writeFile(path, bytes)
  return { path, name: `${mark} ${name}`, bytes }
}

export type RecordedRequest = {
  url: string
  method: string
  body: string
  headers: Record<string, string>
}

/** Every request `page` makes from now on: method, address, headers and body (latin1, to search). */
export function recordTraffic(page: Page): RecordedRequest[] {
  const seen: RecordedRequest[] = []
  page.on('request', (request) =>
    seen.push({
      url: request.url(),
      method: request.method(),
      body: request.postDataBuffer()?.toString('latin1') ?? '',
      headers: request.headers(),
    }),
  )
  return seen
}
