import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { preview, type PreviewServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { previewPlugin } from './preview-plugin'

/**
 * The real `vite preview` with this plugin, on a free port of 127.0.0.1, serving a tiny built
 * folder: what a static host answers, whatever the request's `Accept` header.
 */

let root: string
let server: PreviewServer
let origin: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'preview-plugin-test-'))
  const dist = join(root, 'dist')
  await mkdir(dist)
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Home</title>')
  await writeFile(join(dist, 'services.html'), '<!doctype html><title>Services</title>')
  await writeFile(join(dist, '404.html'), '<!doctype html><title>Not found</title>')
  await writeFile(join(dist, '_headers'), '/*\n  X-Test-Header: shipped\n')
  server = await preview({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [previewPlugin()],
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  })
  const address = server.httpServer.address()
  if (!address || typeof address === 'string') throw new Error('vite preview has no TCP address')
  origin = `http://127.0.0.1:${address.port}`
}, 30_000)

afterAll(async () => {
  await server?.close()
  await rm(root, { recursive: true, force: true })
})

const get = (path: string, accept: string) => fetch(`${origin}${path}`, { headers: { accept } })

describe('vite preview with the site’s preview plugin', () => {
  it.each(['text/html', '*/*', 'application/json', 'text/plain', 'image/png'])(
    'serves / as the home page for Accept: %s',
    async (accept) => {
      const response = await get('/', accept)
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('<title>Home</title>')
      expect(response.headers.get('x-test-header')).toBe('shipped')
    },
  )

  it('serves a clean address whatever the Accept, and 404.html for an unknown one', async () => {
    const page = await get('/services', 'application/json')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<title>Services</title>')
    const missing = await get('/nowhere', 'application/json')
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('<title>Not found</title>')
  })
})
