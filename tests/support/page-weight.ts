import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Page } from '@playwright/test'

export type AssetWeight = { path: string; kind: 'js' | 'css'; raw: number; gzip: number }

/** Bytes of one built file, raw and gzip (level 9, what a static host serves). */
export async function fileWeight(
  distDir: string,
  path: string,
): Promise<{ raw: number; gzip: number }> {
  const bytes = await readFile(join(distDir, path))
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

/**
 * Loads a page and returns every script and stylesheet it fetched from its own origin until the
 * network went quiet (including what it imports after load), weighed from the build output.
 */
export async function weighPage(page: Page, url: string, distDir: string): Promise<AssetWeight[]> {
  const seen = new Map<string, 'js' | 'css'>()
  page.on('response', (response) => {
    const { pathname, origin } = new URL(response.url())
    if (origin !== new URL(page.url() || url, url).origin) return
    if (pathname.endsWith('.js')) seen.set(pathname, 'js')
    else if (pathname.endsWith('.css')) seen.set(pathname, 'css')
  })
  await page.goto(url, { waitUntil: 'networkidle' })
  return Promise.all(
    [...seen].map(async ([path, kind]) => ({ path, kind, ...(await fileWeight(distDir, path)) })),
  )
}

export const sum = (weights: AssetWeight[], kind: 'js' | 'css', field: 'raw' | 'gzip') =>
  weights
    .filter((weight) => weight.kind === kind)
    .reduce((total, weight) => total + weight[field], 0)
